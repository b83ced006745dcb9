"""``accelsim tune``: collect without a GPU, import, config, list, ptx."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from accelsim.cli.tune import parse_search
from accelsim.errors import ConfigError
from accelsim.tune import SCHEMA, import_reference, load_spec
from accelsim.tune.search import resolve_grid


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "accelsim", "tune", *args], capture_output=True,
                          text=True, cwd=cwd)


def _have_gpu() -> bool:
    try:
        from cuda.bindings import driver

        return driver.cuInit(0)[0] == driver.CUresult.CUDA_SUCCESS
    except Exception:  # noqa: BLE001
        return False


def test_collect_without_a_gpu_says_so_in_one_line(tmp_path):
    if _have_gpu():
        pytest.skip("this machine has a GPU")
    proc = cli("collect", "--out", str(tmp_path / "hw.json"))
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "GPU" in lines[0] and "Traceback" not in proc.stderr
    assert not (tmp_path / "hw.json").exists()


def test_import_writes_the_documented_json(shared, tmp_path):
    out = tmp_path / "hw.json"
    proc = cli("import", str(shared / "hw" / "titanv_microbench" / "output.txt"), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    assert data["schema"] == SCHEMA and data["measurements"]["l1_lat"]["value"] == 33.7331


def test_config_writes_a_cited_config_and_a_report(shared, tmp_path):
    """A quick tune: three measurements, no search."""
    full = import_reference(shared / "hw" / "titanv_microbench" / "output.txt")
    full.measurements = {k: full.measurements[k] for k in ("l1_lat", "shared_lat", "fp64_lat")}
    hw = full.save(tmp_path / "hw.json")
    proc = cli("config", "--hw", str(hw), "--spec", "TITANV", "--base", "QV100", "--generic",
               "--search", "none", "-o", str(tmp_path / "My.yaml"), "--report", str(tmp_path / "report"))
    assert proc.returncode == 0, proc.stderr
    # Three of the suite's measurements: the tune runs, and says what it lacks in one line.
    warning = [ln for ln in proc.stderr.splitlines() if "warning" in ln]
    assert len(warning) == 1 and "3 of the 23 measurements the tuner uses" in warning[0]
    text = (tmp_path / "My.yaml").read_text()
    assert "l1d_hit_latency: 34 cycles" in text and "fit: l1_lat" in text
    assert "shmem_latency: 27 cycles" in text
    assert "l1_lat" in proc.stdout and "wrote" in proc.stdout
    assert "<table" in (tmp_path / "report" / "report.html").read_text()
    import pandas as pd

    table = pd.read_csv(tmp_path / "report" / "benchmarks.csv")
    assert list(table["benchmark"]) == ["l1_lat", "shared_lat", "fp64_lat"]
    assert table["within"].all()


def test_config_with_a_bad_spec_is_one_line(tmp_path, shared):
    (tmp_path / "spec.yaml").write_text("facts:\n  sm_count: [80, nowhere]\n")
    proc = cli("config", "--hw", str(shared / "hw" / "titanv_microbench" / "output.txt"),
               "--spec", str(tmp_path / "spec.yaml"), "-o", str(tmp_path / "x.yaml"))
    assert proc.returncode == 1
    assert "facts.sm_count" in proc.stderr and "nowhere" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_list_and_ptx():
    proc = cli("list")
    assert proc.returncode == 0 and "l1_lat" in proc.stdout and "atomic_bw_conflict" in proc.stdout
    proc = cli("ptx", "nope")
    assert proc.returncode == 2 and "invalid choice" in proc.stderr


def test_search_grid_from_the_command_line_and_declarations():
    from accelsim import load_config

    assert parse_search("none") == {}
    assert parse_search("scheduler=lrr,gto;l2_interleave=256,1024") == {
        "scheduler": ["lrr", "gto"], "l2_interleave": [256, 1024]}
    cfg = load_config("QV100")
    grid = resolve_grid(cfg, parse_search("dram_scheduler;l2_write_validate;l2_mshrs"))
    assert grid["dram_scheduler"] == ["fcfs", "frfcfs"]
    assert grid["l2_write_validate"] == [False, True]
    assert grid["l2_mshrs"] == [48, 96, 192, 384, 768]
    with pytest.raises(ConfigError, match="outside its declared range"):
        resolve_grid(cfg, {"l2_mshrs": [0]})
    with pytest.raises(ConfigError, match="not a declared parameter"):
        resolve_grid(cfg, {"warp_magic": [1]})


def test_spec_errors_name_the_fact(tmp_path):
    bad = tmp_path / "s.yaml"
    bad.write_text("sources: {a: x}\nfacts:\n  l2_size: [lots, a]\n")
    with pytest.raises(ConfigError, match="facts.l2_size"):
        load_spec(bad)
    bad.write_text("sources: {a: x}\nfacts:\n  cores: [1, a]\n")
    with pytest.raises(ConfigError, match="unknown fact"):
        load_spec(bad)
    assert load_spec("TITANV").facts["memory_bus_width"] == 3072
