"""The object ``correlate()`` returns: tables as DataFrames, plus plots and a report."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from accelsim.correlation.metricmap import MetricMap


@dataclass(repr=False)
class Correlation:
    """Hardware vs simulator comparison.

    table:       one row per paired value (suite, workload, kernel, launch, counter,
                 hw, sim, error_pct, ...)
    summary:     per counter: error kind (mae/nrmse), n, error_pct, pearson_r
    by_kernel:   per kernel launch, signed % error of each counter
    by_workload, by_suite: the summary within each workload / suite
    outliers:    the largest errors with the kernel's instruction mix
    unmatched:   launches present on one side only, with the reason
    missing:     counters of the map that no kernel had on both sides
    """

    table: pd.DataFrame
    summary: pd.DataFrame
    by_kernel: pd.DataFrame
    by_workload: pd.DataFrame
    by_suite: pd.DataFrame
    outliers: pd.DataFrame
    unmatched: pd.DataFrame
    missing: pd.DataFrame
    mix: pd.DataFrame
    metric_map: MetricMap = field(repr=False)
    hw: pd.DataFrame = field(repr=False)
    sim: pd.DataFrame = field(repr=False)

    def __repr__(self) -> str:  # the tables are for looking at one by one, not all at once
        return (f"Correlation({self.table['counter'].nunique()} counters, {len(self.table)} "
                f"points, {len(self.unmatched)} unmatched launches)")

    def titles(self) -> dict[str, str]:
        return {c.name: c.title for c in self.metric_map.counters}

    def units(self) -> dict[str, str]:
        return {c.name: c.unit for c in self.metric_map.counters}

    def plot(self, counter: str | None = None):
        """A scatter of one counter, or (no argument) the grid of all; a Figure."""
        from accelsim.correlation.figures import correlation_grid, correlation_scatter
        if counter is None:
            return correlation_grid(self.table, titles=self.titles(), units=self.units())
        return correlation_scatter(self.table, counter, title=self.titles().get(counter),
                                   unit=self.units().get(counter, ""))

    def report(self, out_dir: str | Path) -> Path:
        """Write CSV tables, PNG plots and index.html into ``out_dir``; the page's path."""
        from accelsim.correlation.report import write_report
        return write_report(self, Path(out_dir))

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table by the file stem the report gives it."""
        return {"summary": self.summary, "points": self.table, "by_kernel": self.by_kernel,
                "by_workload": self.by_workload, "by_suite": self.by_suite,
                "outliers": self.outliers, "unmatched": self.unmatched,
                "missing_counters": self.missing}
