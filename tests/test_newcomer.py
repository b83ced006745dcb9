"""What a newcomer stumbled on, checked as they met it."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pandas as pd
import pytest

import accelsim
from accelsim.tracegen import Kernel, Memcpy, ThreadBlock, write_workload
from accelsim.tracegen.examples import A_BASE, B_BASE, C_BASE, array_bases, write_vecadd
from conftest import REPO


def cli(*args):
    return subprocess.run([sys.executable, "-m", "accelsim", *args], capture_output=True,
                          text=True, timeout=600)


def test_readme_says_how_to_trace_ones_own_program():
    readme = (REPO / "README.md").read_text()
    assert "NVBit" in readme and "docs/tracing.md" in readme
    guide = (REPO / "docs" / "tracing.md").read_text()
    for step in ("tracer_tool.so", "CUDA_INJECTION64_PATH", "kernelslist.g", "post-traces-processing"):
        assert step in guide, step


def test_example_explains_total_versus_kernel_cycles(tmp_path):
    out = cli("example", "--out", str(tmp_path / "ex"))
    assert out.returncode == 0, out.stderr
    total = int(re.search(r"simulated on \S+: ([\d,]+) cycles in all", out.stdout)[1].replace(",", ""))
    copies = int(re.search(r"([\d,]+) cycles of host-to-device copies", out.stdout)[1].replace(",", ""))
    kernel = re.search(r"Kernel 1's ([\d,]+) cycles .*: ([\d,]+) of launch latency .* and ([\d,]+) "
                       r"executing", out.stdout)
    cycles, latency, executing = (int(kernel[i].replace(",", "")) for i in (1, 2, 3))
    assert total == copies + cycles and cycles == latency + executing and latency > 0


def test_bench_quick_gives_no_target_verdict(monkeypatch):
    out = cli("bench", "--quick", "--case", "pointer_chase")
    assert out.returncode == 0, out.stderr
    assert " NO" not in out.stdout and "targets apply to full runs" in out.stdout
    rows = json.loads(cli("bench", "--quick", "--json", "--case", "vecadd").stdout)
    assert rows[0]["meets_target"] is None and rows[0]["speedup_vs_ref"] > 0


def test_bench_startup_case_measures_both_commands():
    from accelsim.bench import run_bench

    rows = run_bench(quick=True, cases=["startup"])
    assert [r["case"] for r in rows] == ["startup_run_json", "startup_trace_info"]
    for row in rows:
        assert 0 < row["wall_s"] < 60 and 0 < row["peak_rss_mb"] < 1000
        assert row["meets_target"] is None and row["target_wall_s"] == 0.15


def test_families_is_a_property_like_kernels_and_streams(tmp_path):
    result = accelsim.Simulator("QV100").run(write_vecadd(tmp_path / "v", n=512))
    assert "l2.accesses" in result.families and isinstance(result.families, list)
    with pytest.warns(DeprecationWarning, match="property"):
        assert result.families() == list(result.families)


def _two_stream_result(tmp_path):
    handles = [94245263704768, 94245263711232]
    kernels = []
    for i, handle in enumerate(handles):
        k = Kernel(name=f"k{i}", grid=(1, 1, 1), block=(32, 1, 1), id=i + 1, stream=handle)
        k.blocks.append(ThreadBlock(warps=[[*__import__("accelsim").tracegen.examples
                                           .vecadd_warp(0, 32, 32, A_BASE, B_BASE, C_BASE)]]))
        kernels.append(k)
    workload = write_workload(tmp_path / "s", [Memcpy(A_BASE, 128), *kernels])
    return accelsim.Simulator("QV100").run(workload), handles


def test_plots_label_streams_by_slot_not_handle(tmp_path):
    from accelsim.plot import cache_outcomes, stream_timeline

    result, handles = _two_stream_result(tmp_path)
    ticks = [t.get_text() for t in stream_timeline(result).axes[0].get_yticklabels()]
    assert ticks == ["stream #0 (..4768)", "stream #1 (..1232)"]
    bars = [t.get_text() for t in cache_outcomes(result).axes[0].get_xticklabels()]
    assert bars and all(str(h) not in b for b in bars for h in handles)


def _points(n: int) -> pd.DataFrame:
    # Many points close together: their labels would all land on one spot.
    return pd.DataFrame({"counter": "cycles", "hw": [1000.0 + i for i in range(n)],
                         "sim": [1100.0 + i for i in range(n)],
                         "kernel": [f"_Z6kernel{i}Pf" for i in range(n)], "launch": 0,
                         "error_kind": "mae", "error_pct": [10.0 + i for i in range(n)]})


def test_correlation_axes_have_units_and_labels_do_not_overlap():
    from accelsim.plot.correlation import correlation_grid, correlation_scatter

    figure = correlation_scatter(_points(6), "cycles", n_labels=6, unit="cycle")
    ax = figure.axes[0]
    assert ax.get_xlabel() == "hardware (cycle)" and ax.get_ylabel() == "simulator (cycle)"
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    from matplotlib.text import Text  # the label itself, without its leader line

    boxes = [Text.get_window_extent(t, renderer) for t in ax.texts]
    assert len(boxes) >= 2
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not a.overlaps(b), (a, b)
    grid = correlation_grid(_points(3), units={"cycles": "cycle"})
    assert grid.axes[0].get_xlabel() == "hardware (cycle)"


@pytest.mark.parametrize("n", [262_144, 262_145, 1_000_000])
def test_write_vecadd_arrays_never_overlap(n):
    a, b, c = array_bases(n)
    assert b >= a + 4 * n and c >= b + 4 * n
    if n <= 262_144:  # the sizes that always worked keep their addresses
        assert (a, b, c) == (A_BASE, B_BASE, C_BASE)


def test_write_vecadd_large_n_copies_and_loads_do_not_collide(tmp_path):
    n = 300_000
    trace = accelsim.open_trace(write_vecadd(tmp_path / "big", n=n, block=1024))
    copies = trace.commands[trace.commands["kind"] == "memcpy_htod"]
    spans = sorted((int(r.address), int(r.address) + int(r.bytes)) for r in copies.itertuples())
    assert len(spans) == 2 and spans[0][1] <= spans[1][0]
    last = trace.kernel(1).block(-1)
    stores = last[last["opcode"] == trace.kernel(1).opcodes.index("STG")]
    assert len(stores) > 0


def test_write_vecadd_rejects_overlapping_explicit_arrays():
    with pytest.raises(ValueError, match="overlap"):
        array_bases(1_000_000, A_BASE, B_BASE, C_BASE)
