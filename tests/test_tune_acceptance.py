"""The tuner's acceptance: from the TITAN V's microbenchmarks and public spec,
starting from QV100 with its latency/bandwidth parameters reset to generic
values, the tuner's config puts every microbenchmark the simulator models
within 3% (latency) / 5% (bandwidth), and the search picks a warp / DRAM
scheduler combination by its scores. One tuning run (about two minutes on
a loaded two-core machine) serves every assertion."""
from __future__ import annotations

import pytest

from accelsim import load_config
from accelsim.tune import GENERIC, fit, generic_base, import_reference, write_config
from accelsim.tune import params as tparams

GRID = {"scheduler": ["lrr", "gto"], "dram_scheduler": ["fcfs", "frfcfs"], "l2_interleave": [256, 1024]}


@pytest.fixture(scope="module")
def tuned():
    from conftest import shared_data

    data = shared_data()
    if data is None:
        pytest.skip("../shared/data (the TITAN V microbenchmark output) is not present")
    hw = import_reference(data / "hw" / "titanv_microbench" / "output.txt")
    base = generic_base("QV100")
    config, report = fit(hw, "TITANV", base=base, search=GRID, engine="process", workers=2,
                         max_cycles=5_000_000)
    return hw, base, config, report


def test_generic_base_really_forgets_the_tuned_values():
    base = generic_base("QV100")
    for key, value in GENERIC.items():
        assert tparams.get(base, key) == value, key
    assert base["l1d_hit_latency"] != load_config("TITANV")["l1d_hit_latency"]


def test_every_modelled_microbenchmark_is_within_tolerance(tuned):
    _, _, _, report = tuned
    table = report.benchmarks
    bad = table[table["modelled"] & ~table["within"]]
    assert bad.empty, bad.to_string()
    assert report.ok
    latency = table[table["unit"] == "cycles"]
    assert (latency["tolerance_pct"] == 3.0).all()
    assert (table[table["unit"] != "cycles"]["tolerance_pct"] == 5.0).all()
    # what is excluded is excluded for a stated reason, and only that
    # (dram_bw: the reference suite's mem_bw mixes reads and writes, this suite's kernel reads;
    # mem_bw: its cycles are counted at a clock the suite does not record)
    assert set(table[~table["modelled"]]["benchmark"]) == {"dram_bw", "mem_bw"}
    assert table[~table["modelled"]]["note"].str.len().min() > 20
    # tuning did something: the generic base was far off
    assert (table[table["modelled"]]["error_before_pct"].abs() > 5).sum() >= 10


def test_the_search_picks_a_scheduler_combination_with_scores(tuned):
    _, _, config, report = tuned
    scores = report.search
    assert len(scores) == 8
    assert list(scores["mean_abs_err_pct"]) == sorted(scores["mean_abs_err_pct"])
    best = report.search_choice
    assert set(best) == set(GRID)
    assert config["scheduler"] == best["scheduler"]
    assert config["dram_scheduler"] == best["dram_scheduler"]
    assert scores.loc[0, "mean_abs_err_pct"] < scores.loc[len(scores) - 1, "mean_abs_err_pct"]
    assert "l2_bw_sim" in scores and "l2_bw_err_pct" in scores
    assert "dram_bw_sim" not in scores  # the reference's mem_bw is another traffic mix: not a target
    # a tie keeps the base's own values (fewest changes first)
    tied = scores[scores["mean_abs_err_pct"].round(9) == round(scores.loc[0, "mean_abs_err_pct"], 9)]
    assert scores.loc[0, "changes"] == tied["changes"].min()


def test_calibration_loops_fit_the_pieces(tuned):
    _, base, config, report = tuned
    fits = report.fits.set_index("parameter")
    assert config["l2_rop_latency"] != base["l2_rop_latency"]
    assert abs(fits.loc["l2_rop_latency", "error_pct"]) <= 1.5
    assert fits.loc["l2_rop_latency", "steps"] >= 2  # started at the generic 100, moved
    assert abs(fits.loc["dram_fixed_latency", "error_pct"]) <= 1.5


def test_written_config_cites_every_value_and_reads_back(tuned, tmp_path):
    _, base, config, report = tuned
    path = write_config(config, tmp_path / "TITANV-tuned.yaml", base_name=base.name)
    text = path.read_text()
    lines = {line.split(":")[0]: line for line in text.splitlines() if "#" in line and ":" in line}
    assert "spec sm_count = 80 [product]" in lines["sm_count"]
    assert "hw kernel_lat = 7257.6" in lines["kernel_launch_latency"]
    assert "fit: l2_lat" in lines["l2_rop_latency"]
    assert "search: best of 8" in lines["dram_scheduler"]
    assert "hw device dram_timing RAS=29" in lines["dram_tRAS"]
    back = load_config(path)
    assert back.diff(config) == {}
    html = report.to_html(tmp_path / "report.html")
    assert "l2_rop_latency" in html and "mean_abs_err_pct" in html
