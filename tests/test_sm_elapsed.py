"""Hardware-comparable kernel time: per kernel, sm_elapsed_cycles (first CTA
on an SM to last CTA retired) beside cycles (launch to end), the launch
latency apart; the correlator compares the former with Nsight's elapsed
cycles."""
from __future__ import annotations

import accelsim
from accelsim.tracegen.examples import write_vecadd


def _run(tmp_path, **overrides):
    klist = write_vecadd(tmp_path / "vecadd", n=1 << 14, block=256)
    return accelsim.Simulator(accelsim.load_config("QV100").with_overrides(overrides)).run(str(klist))


def test_sm_elapsed_and_launch_latency_columns(tmp_path):
    res = _run(tmp_path)
    k = res.kernels.iloc[0]
    assert k["sm_elapsed_cycles"] == k["end_cycle"] - k["first_cta_cycle"] > 0
    assert k["launch_latency_cycles"] == k["start_cycle"] - k["launch_cycle"] == 5000  # QV100's
    assert k["cycles"] >= k["sm_elapsed_cycles"] + k["launch_latency_cycles"]
    tidy = res.tidy()
    row = tidy[(tidy.component == "gpu") & (tidy.metric == "sm_elapsed_cycles")].iloc[0]
    assert row.nsight_metric == "gpc__cycles_elapsed.max" and row.value == k["sm_elapsed_cycles"]
    assert not tidy[(tidy.component == "gpu") & (tidy.metric == "cycles")].iloc[0].nsight_metric


def test_launch_latency_moves_cycles_not_sm_elapsed(tmp_path):
    short = _run(tmp_path, kernel_launch_latency=100).kernels.iloc[0]
    long = _run(tmp_path, kernel_launch_latency=5000).kernels.iloc[0]
    assert long["cycles"] - short["cycles"] == 4900
    assert long["sm_elapsed_cycles"] == short["sm_elapsed_cycles"]


def test_correlator_compares_sm_elapsed_with_nsight_elapsed_cycles(tmp_path):
    res = _run(tmp_path)
    k = res.kernels.iloc[0]
    hw = tmp_path / "hw.csv"
    hw.write_text('"ID","Kernel Name","gpc__cycles_elapsed.max"\n"","","cycle"\n'
                  f'"0","{k["name"]}","{int(k["sm_elapsed_cycles"])}"\n')
    corr = accelsim.correlate(hw, res)
    row = corr.table[corr.table.counter == "cycles"].iloc[0]
    assert row.sim == k["sm_elapsed_cycles"] and row.error_pct == 0
