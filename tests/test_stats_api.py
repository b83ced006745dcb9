"""The statistics API over hand-made counters: tidy table and Nsight names,
frames with named dimensions, per-stream sums, save/load, plots."""
from __future__ import annotations

import numpy as np
import pytest

from accelsim.stats import TIDY_COLUMNS, load_result
from accelsim.stats.arrays import CounterArray, select_sum
from stats_fake import FakeResult


@pytest.fixture
def result():
    return FakeResult().r


def value(tidy, kernel_id, component, metric):
    rows = tidy[(tidy.kernel_id == kernel_id) & (tidy.component == component)
                & (tidy.metric == metric)]
    assert len(rows) == 1, (component, metric, rows)
    return rows.iloc[0]


def test_tidy_columns_and_cache_metric_names(result):
    tidy = result.tidy()
    assert list(tidy.columns) == TIDY_COLUMNS
    assert value(tidy, 1, "l2", "global_acc_r.miss").value == 3
    assert value(tidy, 1, "l2", "global_acc_r.hit").value == 5
    assert value(tidy, 2, "l2", "global_acc_r.mshr_hit").value == 2
    assert value(tidy, 2, "dram", "ops.write").value == 4


def test_tidy_derived_rows_carry_nsight_names(result):
    tidy = result.tidy()
    row = value(tidy, 1, "l2", "tex_read_sectors")
    assert row.nsight_metric == "lts__t_sectors_srcunit_tex_op_read.sum"
    assert row.value == 8
    assert value(tidy, 2, "l2", "tex_read_hits").value == 2  # MSHR hits are hits
    assert value(tidy, 1, "dram", "read_sectors").nsight_metric == "dram__sectors_read.sum"
    # the profiler's elapsed cycles are the SMs' time, not launch to end
    assert value(tidy, 1, "gpu", "sm_elapsed_cycles").nsight_metric == "gpc__cycles_elapsed.max"
    assert value(tidy, 1, "gpu", "sm_elapsed_cycles").value == 488
    assert value(tidy, 2, "gpu", "launch_latency").value == 20
    assert not value(tidy, 1, "gpu", "cycles").nsight_metric
    assert value(tidy, 2, "sm", "warp_instructions").value == 30
    assert value(tidy, 1, "gpu", "sm_count").value == 80
    # Nsight names are unique per kernel: the correlator sums equal names.
    named = tidy[tidy.nsight_metric != ""]
    assert not named.duplicated(["kernel_id", "nsight_metric"]).any()


def test_counters_are_readonly_named_views(result):
    view = result.counters("l2.accesses")
    assert isinstance(view, CounterArray)
    assert view.dims == ("slice", "stream", "access_type", "outcome")
    assert view.labels["stream"] == [7, 9]
    assert not view.flags.writeable
    assert np.shares_memory(view, result._stats.counters("l2.accesses"))
    with pytest.raises(ValueError):
        view[0, 0, 0, 0] = 1


def test_frame_has_multiindex_of_dim_names(result):
    f = result.frame("l2.accesses")
    assert f.index.names == ["slice", "stream", "access_type", "outcome"]
    assert f.loc[(1, 7, "GLOBAL_ACC_R", "HIT"), "value"] == 5
    k = result.frame("dram.ops", per_kernel=True)
    assert k.index.names == ["kernel_id", "op"]
    assert k.loc[(2, "write"), "value"] == 4


def test_streams_table_sums_to_totals(result):
    s = result.streams
    assert list(s.stream) == [7, 9]
    assert list(s["l2.tex_read_sectors"]) == [8, 2]
    assert s["dram.read_sectors"].sum() + s["dram.write_sectors"].sum() == \
        result.counters("dram.ops").sum()


def test_select_sum_skips_unknown_labels():
    v = np.arange(6, dtype=np.uint64).reshape(2, 3)
    out = select_sum(v, ["a", "b"], {"a": ["x", "y"], "b": ["p", "q", "r"]},
                     {"b": ["p", "r", "zz"]}, keep=("a",))
    assert list(out) == [0 + 2, 3 + 5]


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_save_and_load_round_trip(result, tmp_path, fmt):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    d = result.save(tmp_path / "run", format=fmt)
    assert (d / f"tidy.{fmt}").is_file() and (d / "kernels.csv").is_file()
    back = load_result(d)
    assert back.total_cycles == 500
    a, b = result.tidy(), back.tidy()
    assert list(b.columns) == TIDY_COLUMNS
    assert np.array_equal(a["value"].to_numpy(), b["value"].to_numpy())
    assert np.array_equal(back.counters("l2.accesses"), result.counters("l2.accesses"))
    assert back.counters("l2.accesses").dims == ("slice", "stream", "access_type", "outcome")
    assert back.streams.equals(result.streams)


def test_saved_result_feeds_the_correlator(result, tmp_path):
    from accelsim.correlation.simresult import load_sim_tidy

    d = result.save(tmp_path / "run", format="csv")
    tidy = load_sim_tidy(d)
    assert set(tidy.component) >= {"l2", "dram", "gpu", "sm"}


def test_plots_return_figures(result):
    from matplotlib.figure import Figure

    from accelsim.plot import cache_outcomes, stream_timeline

    fig = stream_timeline({"concurrent": result, "again": result})
    assert isinstance(fig, Figure)
    assert len(fig.axes) == 2
    fig2 = cache_outcomes(result)
    assert isinstance(fig2, Figure)
    fig2.savefig(__import__("io").BytesIO(), format="png")
