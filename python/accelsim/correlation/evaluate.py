"""Compute map counters from tidy statistics, one value per kernel launch.

A tidy frame is first made wide (one row per workload/kernel/launch, one
column per metric name) in base units; each counter's formulas then run on
whole columns, the first formula with all its metrics present winning row by row.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from accelsim.correlation.metricmap import Counter
from accelsim.correlation.units import to_base_units

KEYS = ["workload", "kernel", "launch"]
VALUE_COLUMNS = KEYS + ["counter", "value", "source"]


def wide_frame(named: pd.DataFrame, aggfunc: str) -> pd.DataFrame:
    """``named`` has KEYS, name, value, unit; one column per name, base units."""
    base = to_base_units(named)
    if base.empty:
        return pd.DataFrame(index=pd.MultiIndex.from_tuples([], names=KEYS))
    return base.pivot_table(index=KEYS, columns="name", values="value", aggfunc=aggfunc)


def num_sms_column(wide: pd.DataFrame, metrics, default: float | None) -> pd.Series:
    """The SM count of each row: from the profile where it says, else ``default``."""
    sms = pd.Series(np.nan, index=wide.index, dtype=float)
    for metric in metrics:
        if metric in wide.columns:
            sms = sms.fillna(wide[metric])
    return sms.fillna(default) if default is not None else sms


def _first_available(wide: pd.DataFrame, candidates, extra: dict) -> tuple[pd.Series, pd.Series]:
    """Row by row, the value of the first candidate formula that can be computed."""
    values = pd.Series(np.nan, index=wide.index, dtype=float)
    sources = pd.Series(None, index=wide.index, dtype=object)
    for label, formula in candidates:
        if not all(name in wide.columns or name in extra for name in formula.names):
            continue
        inputs = {name: wide[name] if name in wide.columns else extra[name]
                  for name in formula.names}
        result = pd.Series(formula.evaluate(inputs), index=wide.index, dtype=float)
        take = values.isna() & result.notna()
        values[take] = result[take]
        sources[take] = label
    return values, sources


def counter_values(wide: pd.DataFrame, counters: tuple[Counter, ...], side: str,
                   num_sms: pd.Series) -> pd.DataFrame:
    """Long frame (KEYS, counter, value, source) of every computable counter."""
    frames = []
    for counter in counters:
        candidates = counter.hw if side == "hw" else [("sim", f) for f in counter.sim]
        values, sources = _first_available(wide, candidates, {"num_sms": num_sms})
        frame = pd.DataFrame({"counter": counter.name, "value": values, "source": sources})
        frames.append(frame[values.notna()].reset_index())
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=VALUE_COLUMNS)
    # Typed even when empty, so frames from both sides merge on their keys.
    return out[VALUE_COLUMNS].astype({"workload": str, "kernel": str, "launch": "int64",
                                      "value": float})
