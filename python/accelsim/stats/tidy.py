"""The long statistics table: one row per (kernel, component, metric).

Columns (the correlator's contract, docs/correlator.md): kernel_id, kernel,
stream, component, metric, value, unit, nsight_metric. Per-kernel values come
from the core's kernel table: each kernel's own stream, between its launch
and its end (snapshot differences), instances summed.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from accelsim.stats.arrays import select_sum
from accelsim.stats.naming import NamingTable, load_naming

COLUMNS = ["kernel_id", "kernel", "stream", "component", "metric", "value", "unit",
           "nsight_metric"]


def _rows(keys: pd.DataFrame, component: str, metrics: list, values: np.ndarray, unit: str,
          nsight: list) -> pd.DataFrame:
    """values: [kernels x metrics]; one row per cell, kernel-major."""
    k, m = values.shape
    return pd.DataFrame({
        "kernel_id": np.repeat(keys["id"].to_numpy(), m),
        "kernel": np.repeat(keys["name"].to_numpy(), m),
        "stream": np.repeat(keys["stream"].to_numpy(), m),
        "component": component,
        "metric": np.tile(np.asarray(metrics, dtype=object), k),
        "value": values.reshape(-1).astype(np.float64),
        "unit": unit,
        "nsight_metric": np.tile(np.asarray(nsight, dtype=object), k),
    })


def _category_dims(info: dict) -> list:
    return [d for d in info["dims"] if d["kind"] == "category"]


def family_rows(stats, name: str, rows: np.ndarray, keys: pd.DataFrame,
                naming: NamingTable) -> pd.DataFrame:
    """Every category cell of one family, per kernel (``rows`` picks kernels)."""
    info = stats.info(name)
    cats = _category_dims(info)
    cells = int(np.prod([len(d["labels"]) for d in cats]))  # explicit: no kernel rows is a valid 0 x cells
    values = np.asarray(stats.kernel_counters(name))[rows].reshape(len(rows), cells)
    combos = itertools.product(*[d["labels"] for d in cats])
    metrics = [naming.metric_name(name, info["component"],
                                  dict(zip([d["name"] for d in cats], c))) for c in combos]
    return _rows(keys, info["component"], metrics, values, info["unit"], [""] * len(metrics))


def derived_rows(stats, families: set, rows: np.ndarray, keys: pd.DataFrame,
                 naming: NamingTable) -> list:
    out = []
    for d in naming.derived:
        if d.family not in families:
            continue
        info = stats.info(d.family)
        cats = _category_dims(info)
        dims = ["kernel", *[c["name"] for c in cats]]
        labels = {c["name"]: list(c["labels"]) for c in cats}
        values = select_sum(np.asarray(stats.kernel_counters(d.family))[rows], dims, labels,
                            d.select, keep=("kernel",))
        out.append(_rows(keys, d.component, [d.metric], values.reshape(-1, 1), d.unit, [d.nsight]))
    return out


def column_rows(kernels: pd.DataFrame, keys: pd.DataFrame, naming: NamingTable) -> list:
    out = []
    for c in naming.kernel_columns:
        if c.column not in kernels.columns:
            continue
        values = kernels[c.column].to_numpy(dtype=np.float64).reshape(-1, 1)
        out.append(_rows(keys, c.component, [c.metric], values, c.unit, [c.nsight]))
    return out


def build_tidy(kernels: pd.DataFrame, stats, naming: NamingTable | None = None) -> pd.DataFrame:
    """The tidy table of a run. ``kernels``: the kernel table (row i = row i
    of the core's kernel counters); skipped kernels give no rows. ``stats``:
    anything with families(), info(name) and kernel_counters(name)."""
    naming = naming or load_naming()
    simulated = ~kernels["skipped"].astype(bool) if "skipped" in kernels else \
        pd.Series(True, index=kernels.index)
    rows = np.flatnonzero(simulated.to_numpy())
    sub = kernels.iloc[rows].reset_index(drop=True)
    keys = sub[["id", "name", "stream"]]
    frames = column_rows(sub, keys, naming)
    families = list(stats.families()) if stats is not None else []
    frames += [family_rows(stats, f, rows, keys, naming) for f in families]
    frames += derived_rows(stats, set(families), rows, keys, naming) if families else []
    if not frames or len(sub) == 0:
        return pd.DataFrame({c: pd.Series(dtype=object) for c in COLUMNS})
    tidy = pd.concat(frames, ignore_index=True)
    tidy = tidy.sort_values(["kernel_id", "component", "metric"], kind="stable")
    return tidy.reset_index(drop=True)[COLUMNS]
