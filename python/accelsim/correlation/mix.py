"""Instruction mix (memory / FP32 / FP64 / integer / other %) per kernel launch.

The first thing to look at for an outlier. Taken from the hardware profile when
it has the class counts, else from the simulator's statistics.
"""
from __future__ import annotations

import pandas as pd

from accelsim.correlation.names import kernel_key

CLASSES = ["memory", "fp32", "fp64", "integer"]
IDS = ["workload", "key", "launch"]
MIX_COLUMNS = IDS + [f"{c}_pct" for c in CLASSES] + ["other_pct", "mix_source"]


def _percentages(values: pd.DataFrame, source: str, launches: str) -> pd.DataFrame:
    """Class shares of the total, per (workload, key, launch); averaged for "mean"."""
    if values.empty:
        return pd.DataFrame(columns=MIX_COLUMNS)
    values = values.assign(key=values["kernel"].map(kernel_key))
    if launches == "mean":
        values = values.assign(launch=-1)
    wide = values.pivot_table(index=IDS, columns="counter", values="value", aggfunc="mean")
    if "total" not in wide.columns:
        return pd.DataFrame(columns=MIX_COLUMNS)
    wide = wide[wide["total"] > 0]
    out = pd.DataFrame(index=wide.index)
    for name in CLASSES:
        share = wide[name] if name in wide.columns else float("nan")
        out[f"{name}_pct"] = share / wide["total"] * 100.0
    out["other_pct"] = 100.0 - out[[f"{c}_pct" for c in CLASSES]].sum(axis=1, min_count=1)
    out["mix_source"] = source
    return out.reset_index()


def instruction_mix(hw_values: pd.DataFrame, sim_values: pd.DataFrame,
                    launches: str) -> pd.DataFrame:
    """Mix per (workload, key, launch); hardware where it has one, else simulator.

    ``*_values`` are counter_values() of the map's instruction_mix entries, the
    simulator's already under hardware workload names (see match.pair_workloads).
    """
    frames = [_percentages(hw_values, "hardware", launches),
              _percentages(sim_values, "simulator", launches)]
    mix = pd.concat([f for f in frames if not f.empty] or [frames[0]], ignore_index=True)
    return mix.drop_duplicates(IDS, keep="first")[MIX_COLUMNS].reset_index(drop=True)
