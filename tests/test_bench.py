"""``accelsim bench`` and accelsim.bench.run_bench (quick mode)."""
import json
import subprocess
import sys

from accelsim.bench import CASES, run_bench


def test_run_bench_quick_rows():
    rows = run_bench(quick=True, cases=["vecadd", "pointer_chase"])
    assert [r["case"] for r in rows] == ["vecadd", "pointer_chase"]
    for r in rows:
        assert r["cycles"] > 0 and r["warp_insts"] > 0 and r["wall_s"] > 0
        assert r["warp_insts_per_s"] > 0 and r["cycles_per_s"] > 0
        assert 0 < r["rss_before_run_mb"] <= r["peak_rss_mb"] < 1000
        assert r["speedup_vs_ref"] > 0


def test_bench_cli_quick_json():
    out = subprocess.run([sys.executable, "-m", "accelsim", "bench", "--quick", "--json",
                          "--case", "compute_bound"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert rows[0]["case"] == "compute_bound" and rows[0]["completed"]


def test_cases_cover_the_published_targets():
    names = {c.name for c in CASES}
    assert {"bfs", "vecadd", "copy_float4", "compute_bound", "pointer_chase"} <= names


def test_bench_config_and_overrides_reach_the_simulation():
    detailed = run_bench(quick=True, cases=["pointer_chase"])[0]
    simple = run_bench(quick=True, cases=["pointer_chase"], overrides={"memory_model": "simple"})[0]
    assert detailed["warp_insts"] == simple["warp_insts"]
    assert detailed["cycles"] != simple["cycles"]  # different memory models, different timing


def test_bench_rejects_a_bad_override_before_running():
    import pytest

    import accelsim

    with pytest.raises(accelsim.ConfigError, match="memory_modl"):
        run_bench(quick=True, cases=["pointer_chase"], overrides={"memory_modl": "simple"})
