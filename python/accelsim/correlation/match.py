"""Pair hardware and simulator kernel launches.

Workloads pair by name; a lone hardware workload and a lone simulated one pair
whatever their names (the usual one-profile, one-run case). Kernels pair by
name key (see names.py) and launch order. With ``launches="mean"`` every
kernel's launches are averaged first and pair as one (launch -1). Launches
without a partner are returned with the reason, never dropped silently.
"""
from __future__ import annotations

import pandas as pd

from accelsim.correlation.names import kernel_key

LAUNCH_MODES = ("separate", "mean")
UNMATCHED_COLUMNS = ["side", "workload", "kernel", "launch", "reason"]


def pair_workloads(hw_names, sim_names) -> dict[str, str]:
    """sim workload name -> hw workload name."""
    hw_names, sim_names = sorted(set(hw_names)), sorted(set(sim_names))
    if len(hw_names) == 1 and len(sim_names) == 1:
        return {sim_names[0]: hw_names[0]}
    return {name: name for name in sim_names}


def _keyed(values: pd.DataFrame, launches: str) -> pd.DataFrame:
    out = values.assign(key=values["kernel"].map(kernel_key))
    if launches == "separate":
        return out.assign(n_launches=1)
    grouped = out.groupby(["workload", "key", "counter"], as_index=False, sort=False)
    return grouped.agg(kernel=("kernel", "first"), value=("value", "mean"),
                       n_launches=("launch", "nunique")).assign(launch=-1)


def _reason(row, other: pd.DataFrame, other_side: str) -> str:
    mine = other[other["workload"] == row["workload"]]
    if mine.empty:
        return f"workload not in {other_side}"
    same = mine[mine["key"] == row["key"]]
    if same.empty:
        return f"kernel not in {other_side}"
    return f"launch {row['launch']} not in {other_side} ({len(same)} launches there)"


def _launch_list(kernels: pd.DataFrame, launches: str) -> pd.DataFrame:
    """Distinct (workload, key, launch) with a kernel name; one per kernel for "mean"."""
    keyed = kernels.assign(key=kernels["kernel"].map(kernel_key))
    if launches == "mean":
        keyed = keyed.assign(launch=-1)
    return keyed.drop_duplicates(["workload", "key", "launch"])


def unmatched_launches(hw_kernels: pd.DataFrame, sim_kernels: pd.DataFrame,
                       launches: str) -> pd.DataFrame:
    """Launches on one side only, from each side's full kernel list (workload, kernel,
    launch): a kernel none of whose counters is in the map still counts."""
    hw_k, sim_k = _launch_list(hw_kernels, launches), _launch_list(sim_kernels, launches)
    ids = ["workload", "key", "launch"]
    both = hw_k.merge(sim_k, on=ids, how="outer", indicator=True, suffixes=("", "_sim"))
    rows = []
    for _, row in both[both["_merge"] != "both"].iterrows():
        if row["_merge"] == "left_only":
            rows.append(("hardware only", row["workload"], row["kernel"], row["launch"],
                         _reason(row, sim_k, "simulation")))
        else:
            rows.append(("simulator only", row["workload"], row["kernel_sim"], row["launch"],
                         _reason(row, hw_k, "hardware profile")))
    return pd.DataFrame(rows, columns=UNMATCHED_COLUMNS)


def paired_values(hw_values: pd.DataFrame, sim_values: pd.DataFrame,
                  launches: str = "separate") -> pd.DataFrame:
    """Counter values found on both sides (sim workloads already renamed to hw ones).

    Columns: workload, kernel (hardware's name), launch, n_launches, counter, hw, sim,
    source (which profiler formula gave hw).
    """
    if launches not in LAUNCH_MODES:
        raise ValueError(f"launches must be one of {LAUNCH_MODES}, not {launches!r}")
    hw, sim = _keyed(hw_values, launches), _keyed(sim_values, launches)
    if launches == "mean":  # keep the source formula of the averaged hardware values
        sources = hw_values.assign(key=hw_values["kernel"].map(kernel_key))
        sources = sources.drop_duplicates(["workload", "key", "counter"])
        hw = hw.merge(sources[["workload", "key", "counter", "source"]], how="left")
    on = ["workload", "key", "launch", "counter"]
    paired = hw.merge(sim[on + ["value"]], on=on, suffixes=("_hw", "_sim"))
    paired = paired.rename(columns={"value_hw": "hw", "value_sim": "sim"})
    columns = ["workload", "kernel", "launch", "n_launches", "counter", "hw", "sim", "source"]
    return paired[columns]
