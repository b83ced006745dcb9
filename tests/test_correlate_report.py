"""The report renders: CSV tables, non-trivial PNGs, an index.html whose links resolve."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.image import imread

import accelsim
from accelsim import ProfileError
from accelsim.correlation import SIM_COLUMNS, load_sim_tidy

KERNELS = ["_Z5alphaPf", "_Z4betaPf", "_Z5gammaPf", "_Z5deltaPf"]


def hardware(tmp_path: Path) -> Path:
    """A small Nsight-style raw export: four kernels, cycles spanning 3 decades."""
    lines = ['"ID","Kernel Name","gpc__cycles_elapsed.max","smsp__inst_executed.sum",'
             '"dram__sectors_write.sum"', '"","","cycle","inst","sector"']
    for i, name in enumerate(["alpha", "beta", "gamma", "delta"]):
        lines.append(f'"{i}","{name}","{10 ** (i + 2):,}","{400 * (i + 1):,}","{i * 8}"')
    path = tmp_path / "hw.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def simulated(tmp_path: Path) -> Path:
    rows = []
    for i, kernel in enumerate(KERNELS):
        for metric, value in [("gpc__cycles_elapsed.max", 10 ** (i + 2) * (1 + 0.1 * i)),
                              ("smsp__inst_executed.sum", 400 * (i + 1)),
                              ("dram__sectors_write.sum", i * 6)]:
            rows.append(dict(kernel_id=i, kernel=kernel, stream=0, component="gpu",
                             metric=metric, value=value, unit="", nsight_metric=metric))
    out = tmp_path / "run1"
    out.mkdir()
    pd.DataFrame(rows).to_csv(out / "tidy.csv", index=False)
    return out


def check_png(path: Path) -> None:
    assert path.stat().st_size > 5_000, path
    pixels = imread(path)
    assert pixels.shape[0] >= 250 and pixels.shape[1] >= 250, pixels.shape
    assert np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0).shape[0] > 10


def check_links(index: Path) -> list[str]:
    links = re.findall(r"(?:href|src)='([^']+)'", index.read_text())
    assert links
    for link in links:
        assert not link.startswith(("/", "http")), link  # relative: opens without a server
        assert (index.parent / link).is_file(), link
    return links


def test_report_renders(tmp_path):
    corr = accelsim.correlate({"app": hardware(tmp_path)}, {"app": simulated(tmp_path)})
    index = corr.report(tmp_path / "report")
    links = check_links(index)
    pngs = sorted((tmp_path / "report" / "plots").glob("*.png"))
    assert {p.stem for p in pngs} == {"all_counters", "cycles", "warp_instructions", "ipc",
                                      "thread_ipc", "dram_write_sectors"} - {"ipc", "thread_ipc"}
    for png in pngs:
        check_png(png)
        assert f"plots/{png.name}" in links
    summary = pd.read_csv(tmp_path / "report" / "tables" / "summary.csv")
    assert set(summary["counter"]) == {"cycles", "warp_instructions", "dram_write_sectors"}
    assert "tables/unmatched.csv" in links


def test_plot_returns_figures(tmp_path):
    from matplotlib.figure import Figure
    corr = accelsim.correlate(hardware(tmp_path), simulated(tmp_path))
    grid, one = corr.plot(), corr.plot("cycles")
    assert isinstance(grid, Figure) and isinstance(one, Figure)
    assert one.axes[0].get_xscale() == "log"           # 100 .. 100000 cycles
    assert "MAE" in one.axes[0].get_title() and "r = " in one.axes[0].get_title()
    assert corr.plot("warp_instructions").axes[0].get_xscale() == "linear"


def test_cli_writes_report(tmp_path):
    out = subprocess.run([sys.executable, "-m", "accelsim", "correlate", "--hw",
                          str(hardware(tmp_path)), "--sim", str(simulated(tmp_path)),
                          "--out", str(tmp_path / "rep")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "cycles" in out.stdout and "report:" in out.stdout
    check_links(tmp_path / "rep" / "index.html")


def test_cli_bad_profile_is_one_line_error(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text('"ID","Kernel Name","x"\n"","","cycle"\n"0","k","zz"\n')
    out = subprocess.run([sys.executable, "-m", "accelsim", "correlate", "--hw", str(bad),
                          "--sim", str(simulated(tmp_path)), "--out", str(tmp_path / "r")],
                         capture_output=True, text=True)
    assert out.returncode == 1
    assert out.stderr.strip().count("\n") == 0 and "bad.csv:3" in out.stderr


def test_sim_dir_contract(tmp_path):
    frame = load_sim_tidy(simulated(tmp_path))
    assert list(frame.columns) == SIM_COLUMNS
    assert len(frame) == 12 and set(frame["nsight_metric"]) >= {"gpc__cycles_elapsed.max"}
    (tmp_path / "bad").mkdir()
    pd.DataFrame({"kernel": ["k"], "value": [1]}).to_csv(tmp_path / "bad" / "tidy.csv")
    with pytest.raises(ProfileError) as info:
        load_sim_tidy(tmp_path / "bad")
    assert info.value.field == "kernel_id"
    with pytest.raises(FileNotFoundError):
        load_sim_tidy(tmp_path)


def test_sim_result_object(tmp_path):
    class Result:  # the documented shape of the simulator's result object
        name = "app"

        def tidy(self):
            return load_sim_tidy(simulated(tmp_path))

    corr = accelsim.correlate({"app": hardware(tmp_path)}, Result())
    assert corr.unmatched.empty and len(corr.table) == 12


def test_parquet_result_dir(tmp_path):
    pytest.importorskip("pyarrow")
    run = simulated(tmp_path)
    pd.read_csv(run / "tidy.csv").to_parquet(run / "tidy.parquet")
    (run / "tidy.csv").unlink()
    assert len(load_sim_tidy(run)) == 12
