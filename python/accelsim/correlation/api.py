"""``correlate(hw, sim)``: the whole comparison in one call."""
from __future__ import annotations

import pandas as pd

from accelsim.correlation import tables
from accelsim.correlation.evaluate import counter_values, num_sms_column, wide_frame
from accelsim.correlation.match import paired_values, pair_workloads, unmatched_launches
from accelsim.correlation.metricmap import MetricMap, load_metric_map
from accelsim.correlation.mix import instruction_mix
from accelsim.correlation.profile import read_profile
from accelsim.correlation.result import Correlation
from accelsim.correlation.simresult import named_rows, sim_tidy
from accelsim.correlation.widetable import TIDY_COLUMNS
from accelsim.errors import ProfileError


def hardware_tidy(hw) -> pd.DataFrame:
    """A tidy hardware frame from paths/mappings (read_profile) or a tidy frame."""
    if isinstance(hw, pd.DataFrame):
        missing = [c for c in TIDY_COLUMNS if c not in hw.columns]
        if missing:
            raise ProfileError(f"hardware frame lacks column(s) {missing}", None, None,
                               missing[0])
        return hw[TIDY_COLUMNS].assign(unit=hw["unit"].fillna("").astype(str))
    return read_profile(hw)


def _kernels(tidy: pd.DataFrame) -> pd.DataFrame:
    """Every (workload, kernel, launch) of a side, whether or not the map uses its metrics."""
    return tidy[["workload", "kernel", "launch"]].drop_duplicates().astype({"launch": "int64"})


def _side_values(named, aggfunc, metric_map, side, num_sms):
    wide = wide_frame(named, aggfunc)
    sms = num_sms_column(wide, metric_map.num_sms_metrics, num_sms)
    return (counter_values(wide, metric_map.counters, side, sms),
            counter_values(wide, metric_map.mix, side, sms))


def _missing_counters(metric_map: MetricMap, hw_values, sim_values, table) -> pd.DataFrame:
    """Counters with no paired point, and which side lacks them."""
    rows = []
    for counter in metric_map.counters:
        if (table["counter"] == counter.name).any():
            continue
        sides = [side for side, values in (("hardware", hw_values), ("simulator", sim_values))
                 if not (values["counter"] == counter.name).any()]
        reason = f"no {' or '.join(sides)} value" if sides else "no kernel has both values"
        rows.append((counter.name, reason))
    return pd.DataFrame(rows, columns=["counter", "reason"])


def _check_arguments(launches, num_sms, n_outliers) -> None:
    import math

    from accelsim.errors import ConfigError

    if launches not in ("separate", "mean"):
        raise ConfigError(f"launches must be 'separate' or 'mean', not {launches!r}",
                          key="launches")
    if num_sms is not None and (isinstance(num_sms, bool) or not isinstance(num_sms, (int, float))
                                or not math.isfinite(num_sms) or not 1 <= num_sms <= 100_000):
        raise ConfigError(f"num_sms must be a positive SM count in [1, 100000], got {num_sms!r}",
                          key="num_sms")
    if isinstance(n_outliers, bool) or not isinstance(n_outliers, int) or n_outliers < 0:
        raise ConfigError(f"n_outliers must be a whole number >= 0, got {n_outliers!r}",
                          key="n_outliers")


def correlate(hw, sim, *, launches: str = "separate", num_sms: float | None = None,
              metric_map: MetricMap | str | None = None, n_outliers: int = 10) -> Correlation:
    """Compare hardware profiles with simulator results.

    ``hw``: profiler CSV path(s), ``{workload: path(s)}``, or a tidy frame
    (workload, kernel, launch, metric, value, unit). ``sim``: result dir(s),
    result object(s), ``{workload: ...}`` or a simulator tidy frame.
    ``launches``: "separate" pairs launch i with launch i; "mean" averages each
    kernel's launches first. ``num_sms``: the GPU's SM count where a profile
    does not record it (nvprof). ``metric_map``: a MetricMap or YAML path.
    """
    _check_arguments(launches, num_sms, n_outliers)
    if not isinstance(metric_map, MetricMap):
        metric_map = load_metric_map(metric_map)
    hw_tidy, sim_frame = hardware_tidy(hw), sim_tidy(sim)
    hw_values, hw_mix = _side_values(hw_tidy.assign(name=hw_tidy["metric"]), "mean",
                                     metric_map, "hw", num_sms)
    sim_values, sim_mix = _side_values(named_rows(sim_frame), "sum", metric_map, "sim", num_sms)
    hw_kernels, sim_kernels = _kernels(hw_tidy), _kernels(sim_frame)
    names = pair_workloads(hw_kernels["workload"], sim_kernels["workload"])
    sim_kernels, sim_values, sim_mix = (frame.assign(workload=frame["workload"].map(names))
                                        for frame in (sim_kernels, sim_values, sim_mix))
    table = tables.point_table(paired_values(hw_values, sim_values, launches), metric_map)
    unmatched = unmatched_launches(hw_kernels, sim_kernels, launches)
    mix = instruction_mix(hw_mix, sim_mix, launches)
    return Correlation(
        table=table, summary=tables.grouped(table, []),
        by_kernel=tables.by_kernel(table), by_workload=tables.grouped(table, ["workload"]),
        by_suite=tables.grouped(table, ["suite"]),
        outliers=tables.outliers(table, mix, n_outliers), unmatched=unmatched,
        missing=_missing_counters(metric_map, hw_values, sim_values, table), mix=mix,
        metric_map=metric_map, hw=hw_tidy, sim=sim_frame)
