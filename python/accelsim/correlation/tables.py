"""Error tables: per point, per kernel, per workload, per suite, per counter.

Each group's error is the counter's error metric (MAE or NRMSE, per the map)
over the group's points, with the Pearson correlation beside it.
"""
from __future__ import annotations

import pandas as pd

from accelsim.correlation import errstats
from accelsim.correlation.metricmap import MetricMap
from accelsim.correlation.names import kernel_key

GROUP_COLUMNS = ["counter", "error_kind", "n", "n_used", "error_pct", "pearson_r"]


def suite_of(workload: str) -> str:
    """Workloads named ``suite/name`` belong to ``suite``; others to no suite ("")."""
    return workload.split("/", 1)[0] if "/" in workload else ""


def point_table(paired: pd.DataFrame, metric_map: MetricMap) -> pd.DataFrame:
    """Every paired value with its suite, error kind and signed % error."""
    kinds = {c.name: c.error for c in metric_map.counters}
    table = paired.assign(suite=paired["workload"].map(suite_of),
                          error_kind=paired["counter"].map(kinds))
    table["error_pct"] = float("nan")
    for counter, rows in table.groupby("counter"):
        table.loc[rows.index, "error_pct"] = errstats.point_error_pct(
            rows["hw"], rows["sim"], kinds[counter])
    order = [c.name for c in metric_map.counters]
    table["counter"] = pd.Categorical(table["counter"], categories=order, ordered=True)
    table = table.sort_values(["counter", "workload", "kernel", "launch"])
    table["counter"] = table["counter"].astype(str)
    front = ["suite", "workload", "kernel", "launch", "counter", "hw", "sim", "error_pct"]
    return table[front + [c for c in table.columns if c not in front]].reset_index(drop=True)


def _group_errors(rows: pd.DataFrame) -> pd.Series:
    kind = rows["error_kind"].iloc[0]
    used = (rows["hw"] != 0).sum() if kind == "mae" else len(rows)
    return pd.Series({"error_kind": kind, "n": len(rows), "n_used": int(used),
                      "error_pct": errstats.error_of(kind, rows["hw"], rows["sim"]),
                      "pearson_r": errstats.pearson(rows["hw"], rows["sim"])})


def grouped(table: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Error metric and correlation of each counter within each ``by`` group."""
    columns = by + GROUP_COLUMNS
    if table.empty:
        return pd.DataFrame(columns=columns)
    rows = [dict(zip(by + ["counter"], key if isinstance(key, tuple) else (key,)),
                 **_group_errors(part))
            for key, part in table.groupby(by + ["counter"], sort=False)]
    return pd.DataFrame(rows, columns=columns)


def by_kernel(table: pd.DataFrame) -> pd.DataFrame:
    """One row per kernel launch, one column of signed % error per counter."""
    if table.empty:
        return pd.DataFrame()
    return table.pivot_table(index=["suite", "workload", "kernel", "launch"],
                             columns="counter", values="error_pct", sort=False).reset_index()


def outliers(table: pd.DataFrame, mix: pd.DataFrame, count: int = 10) -> pd.DataFrame:
    """The ``count`` points with the largest |error|, each with its instruction mix."""
    worst = table.dropna(subset=["error_pct"])
    worst = worst.reindex(worst["error_pct"].abs().sort_values(ascending=False).index)
    worst = worst.head(count)
    worst = worst.assign(key=worst["kernel"].map(kernel_key))
    out = worst.merge(mix, on=["workload", "key", "launch"], how="left")
    return out.drop(columns="key").reset_index(drop=True)
