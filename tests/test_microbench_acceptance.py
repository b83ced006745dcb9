"""Acceptance of the generated microbenchmarks, simulated with the
TITANV config, against the real TITAN V (output.txt of the reference suite).
The whole file runs in well under a minute (short timed lengths: the
difference method needs no long runs)."""
from __future__ import annotations

import json

import pytest

from accelsim import load_config
from accelsim.cli import main
from accelsim.microbench import names, run

TOLERANCE_PCT = 5.0

# Benchmarks held to 5% of hardware, with their hardware values as the issue states them.
ACCEPTED = {
    "l1_lat": 33.7, "shared_lat": 27.0, "fp32_lat": 4.1, "fp64_lat": 8.1, "sfu_lat": 21.1,
    "fp32_flops": 126.9, "fp64_flops": 63.9, "fp16_flops": 249.3, "int32_flops": 126.9,
    "l1_bw_64": 122.8, "shared_bw": 126.5,
}
# Known misses caused by the timing core, not by the benchmark or the config
# (see docs/microbench.md, "Known timing-core gaps"). strict: once the core is
# fixed these pass and the marker must go.
CORE_GAPS = {
}


@pytest.fixture(scope="module")
def titanv():
    return load_config("TITANV")


def _params():
    for name, hw in ACCEPTED.items():
        marks = [pytest.mark.xfail(reason=CORE_GAPS[name], strict=True)] if name in CORE_GAPS else []
        yield pytest.param(name, hw, marks=marks, id=name)


@pytest.mark.parametrize("name, hw_value", list(_params()))
def test_within_five_percent_of_titan_v(titanv, name, hw_value):
    m = run(name, titanv)
    assert m.hw_value == pytest.approx(hw_value, abs=0.05)
    assert abs(m.value - hw_value) <= TOLERANCE_PCT / 100 * hw_value, str(m)


@pytest.mark.parametrize("name", ["l2_lat", "dram_lat", "l2_bw", "dram_bw"])
def test_l2_and_dram_benchmarks_run(titanv, name):
    m = run(name, titanv, reps=4 if name.endswith("bw") else 32)
    # The card's mem_lat chases 32 B sectors in order (the twin's pattern
    # "sequential"): no figure for the default strided chase; and its DRAM
    # bandwidth figure is the mem_bw twin's (five read streams and a write).
    assert m.value > 0 and (m.hw_value is None) == (name in ("dram_lat", "dram_bw"))
    if name.endswith("lat"):
        assert m.value > 100  # below L1: far slower than an L1 hit


def test_dram_slower_than_l2_slower_than_l1(titanv):
    l1, l2, dram = (run(n, titanv, reps=32).value for n in ("l1_lat", "l2_lat", "dram_lat"))
    assert l1 < l2 < dram


def test_latency_follows_the_config(titanv):
    """A config change moves the measured latency by the same amount."""
    base = run("fp64_lat", titanv, reps=64).value
    units = [dict(u, latency=u["latency"] + 3) if u["name"] == "dp" else u for u in titanv["exec_units"]]
    slower = run("fp64_lat", titanv.with_overrides({"exec_units": units}), reps=64).value
    assert slower == pytest.approx(base + 3)


def test_cli_json(capsys):
    assert main(["microbench", "fp32_lat", "--config", "TITANV", "--json", "--reps", "32"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["name"] == "fp32_lat" and out["unit"] == "cycles"
    assert out["hw_value"] == pytest.approx(4.128845) and out["error_pct"] is not None


def test_cli_table_and_list(capsys):
    assert main(["microbench", "list"]) == 0
    listed = capsys.readouterr().out
    assert all(n in listed for n in names())
    assert main(["microbench", "sfu_lat", "--reps", "16"]) == 0
    out = capsys.readouterr().out
    assert "sfu_lat" in out and "21.1" in out and "%" in out
