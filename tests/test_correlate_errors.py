"""Error metrics against hand-computed values; matching, zero counters, missing kernels."""
from __future__ import annotations

import math

import pandas as pd
import pytest

from accelsim import correlate
from accelsim.correlation import mae, nrmse, pearson
from accelsim.correlation.errstats import point_error_pct


def test_mae_skips_zero_reference():
    # |110-100|/100 = 10%, |180-200|/200 = 10%; the hw == 0 point has no % error
    assert mae([100, 200, 0], [110, 180, 5]) == pytest.approx(10.0)


def test_nrmse_by_hand():
    # diffs 0, 2, -6 -> mean square 40/3 -> rmse 3.6515; mean hw 10
    assert nrmse([0, 10, 20], [0, 12, 14]) == pytest.approx(math.sqrt(40 / 3) / 10 * 100)


def test_nrmse_all_zero_counter_is_exact():
    assert nrmse([0, 0], [0, 0]) == 0.0
    assert math.isnan(nrmse([0, 0], [1, 0]))


def test_pearson_by_hand():
    assert pearson([1, 2, 3], [2, 4, 7]) == pytest.approx(5 / math.sqrt(2 * 38 / 3))
    assert math.isnan(pearson([1], [1]))
    assert math.isnan(pearson([1, 1, 1], [1, 2, 3]))


def test_point_error_of_zero_hw_uses_counter_mean():
    errors = point_error_pct([0, 10, 20], [5, 12, 14], "nrmse")
    assert list(errors) == pytest.approx([50.0, 20.0, -30.0])
    assert math.isnan(point_error_pct([0, 10], [5, 12], "mae")[0])


def hw_frame(rows):
    return pd.DataFrame(rows, columns=["workload", "kernel", "launch", "metric", "value", "unit"])


def sim_frame(rows):
    """rows: (kernel_id, kernel, nsight_metric, value)."""
    return pd.DataFrame([dict(kernel_id=i, kernel=k, stream=0, component="gpu", metric=m,
                              value=v, unit="", nsight_metric=m) for i, k, m, v in rows])


CYC, INST, DRAM_W = "gpc__cycles_elapsed.max", "smsp__inst_executed.sum", "dram__sectors_write.sum"


@pytest.fixture
def pair():
    hw = hw_frame([
        ("app", "void alpha<int>(int*)", 0, CYC, 1000, "cycle"),
        ("app", "void alpha<int>(int*)", 0, INST, 400, "inst"),
        ("app", "void alpha<int>(int*)", 0, DRAM_W, 0, "sector"),
        ("app", "void alpha<int>(int*)", 1, CYC, 2000, "cycle"),
        ("app", "void alpha<int>(int*)", 1, INST, 400, "inst"),
        ("app", "void alpha<int>(int*)", 1, DRAM_W, 10, "sector"),
        ("app", "beta(float*)", 0, CYC, 500, "cycle"),     # never simulated
    ])
    sim = sim_frame([
        (0, "_Z5alphaIiEvPi", CYC, 1100), (0, "_Z5alphaIiEvPi", INST, 400),
        (0, "_Z5alphaIiEvPi", DRAM_W, 0),
        (1, "_Z5alphaIiEvPi", CYC, 1800), (1, "_Z5alphaIiEvPi", INST, 440),
        (1, "_Z5alphaIiEvPi", DRAM_W, 14),
        (2, "_Z5gammav", CYC, 50),                           # not in the profile
    ])
    return hw, sim


def summary_row(corr, counter):
    return corr.summary.set_index("counter").loc[counter]


def test_separate_launches_hand_computed(pair):
    corr = correlate(*pair)
    cycles = summary_row(corr, "cycles")
    # |1100-1000|/1000 = 10%, |1800-2000|/2000 = 10%
    assert (cycles["error_kind"], cycles["n"], cycles["error_pct"]) == ("mae", 2, pytest.approx(10))
    assert summary_row(corr, "warp_instructions")["error_pct"] == pytest.approx(5.0)
    writes = summary_row(corr, "dram_write_sectors")
    # zero-valued counter: NRMSE; diffs 0 and 4 -> rmse sqrt(8); mean hw 5
    assert writes["error_kind"] == "nrmse"
    assert writes["error_pct"] == pytest.approx(math.sqrt(8) / 5 * 100)
    assert cycles["pearson_r"] == pytest.approx(1.0)


def test_missing_kernels_are_listed(pair):
    unmatched = correlate(*pair).unmatched.set_index("kernel")
    assert unmatched.loc["beta(float*)", "side"] == "hardware only"
    assert unmatched.loc["beta(float*)", "reason"] == "kernel not in simulation"
    assert unmatched.loc["_Z5gammav", "side"] == "simulator only"
    assert len(unmatched) == 2


def test_extra_launch_is_listed(pair):
    hw, sim = pair
    corr = correlate(hw, sim[sim["kernel_id"] != 1])
    row = corr.unmatched[corr.unmatched["side"] == "hardware only"].set_index("launch").loc[1]
    assert row["reason"].startswith("launch 1 not in simulation")


def test_mean_launches(pair):
    corr = correlate(*pair, launches="mean")
    point = corr.table[corr.table["counter"] == "cycles"].iloc[0]
    assert (point["hw"], point["sim"], point["launch"], point["n_launches"]) == (1500, 1450, -1, 2)


def test_tables_by_workload_suite_kernel(pair):
    hw, sim = pair
    corr = correlate(hw.assign(workload="suite/app"), sim)
    assert set(corr.by_suite["suite"]) == {"suite"}
    assert set(corr.by_workload["workload"]) == {"suite/app"}
    kernel = corr.by_kernel.set_index("launch")
    assert kernel.loc[0, "cycles"] == pytest.approx(10.0)
    assert kernel.loc[1, "cycles"] == pytest.approx(-10.0)


def test_outliers_carry_instruction_mix(pair):
    hw, sim = pair
    mix = [("smsp__sass_thread_inst_executed_op_memory_pred_on.sum", 20),
           ("smsp__sass_thread_inst_executed_op_fp32_pred_on.sum", 50),
           ("smsp__sass_thread_inst_executed_op_fp64_pred_on.sum", 0),
           ("smsp__sass_thread_inst_executed_op_integer_pred_on.sum", 10),
           ("smsp__thread_inst_executed_pred_on.sum", 100)]
    extra = hw_frame([("app", "void alpha<int>(int*)", launch, m, v, "inst")
                      for launch in (0, 1) for m, v in mix])
    corr = correlate(pd.concat([hw, extra]), sim, n_outliers=3)
    worst = corr.outliers.iloc[0]
    assert worst["counter"] == "dram_write_sectors" and worst["error_pct"] == pytest.approx(40)
    assert (worst["memory_pct"], worst["fp32_pct"], worst["other_pct"]) == (20, 50, 20)
    assert worst["mix_source"] == "hardware"


def test_nvprof_needs_num_sms(shared):
    from accelsim import read_profile
    d = shared / "hw/gtx1080_vectoradd_profiler"
    hw = read_profile({"vectoradd": [d / "nvprof_vectoradd_100_32_metrics_all.txt",
                                     d / "nvprof_vectoradd_100_32_commands.txt"]})
    sim = sim_frame([(0, "_Z6vecAddIfEvPT_S1_S1_i", CYC, 4000),
                     (0, "_Z6vecAddIfEvPT_S1_S1_i", INST, 344),
                     (0, "_Z6vecAddIfEvPT_S1_S1_i", "device__attribute_multiprocessor_count", 20)])
    assert "cycles" in set(correlate(hw, sim).missing["counter"])
    table = correlate(hw, sim, num_sms=20).table.set_index("counter")
    assert table.loc["cycles", "hw"] == pytest.approx(89855 / 20)   # nvprof sums over SMs
    assert table.loc["ipc", "hw"] == pytest.approx(344 / 20 / (89855 / 20))
    assert table.loc["thread_ipc", "hw"] == pytest.approx(344 / (89855 / 20) * 32)
    assert table.loc["ipc", "sim"] == pytest.approx(344 / 20 / 4000)


def test_l1_hits_count_tag_hits_like_the_profiler():
    """The simulator's SECTOR_MISS (tag present) counts as a profiler L1 hit."""
    hw = hw_frame([("app", "k", 0, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
                    40, "sector"),
                   ("app", "k", 0, "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", 7, "")])
    sim = pd.DataFrame([dict(kernel_id=0, kernel="k", stream=0, component=c, metric=m, value=v,
                             unit="", nsight_metric="") for c, m, v in
                        [("l1d", "global_acc_r.hit", 30), ("l1d", "global_acc_r.sector_miss", 10),
                         ("l1d", "global_acc_r.miss", 5), ("l2", "global_acc_r.hit", 6)]])
    table = correlate(hw, sim).table.set_index("counter")
    assert table.loc["l1_global_load_hits", "sim"] == 40
    assert table.loc["l2_read_hits", ["hw", "sim"]].tolist() == [7, 6]


def test_kernel_without_mapped_counters_is_still_listed():
    hw = hw_frame([("app", "k", 0, CYC, 100, "cycle")])
    sim = pd.DataFrame([dict(kernel_id=0, kernel="other", stream=0, component="gpu",
                             metric="unmapped", value=1, unit="", nsight_metric="")])
    corr = correlate(hw, sim)
    assert corr.table.empty and corr.summary.empty
    assert sorted(corr.unmatched["side"]) == ["hardware only", "simulator only"]


def test_workloads_pair_by_name_when_several():
    hw = pd.concat([hw_frame([("app", "k", 0, CYC, 100, "cycle")]),
                    hw_frame([("b", "k", 0, CYC, 100, "cycle")])])
    run = sim_frame([(0, "k", CYC, 110)])
    corr = correlate(hw, {"app": run, "zzz": run})
    assert list(corr.table["workload"]) == ["app"]
    reasons = dict(zip(corr.unmatched["workload"], corr.unmatched["reason"]))
    assert reasons == {"b": "workload not in simulation", "zzz": "workload not in hardware profile"}
