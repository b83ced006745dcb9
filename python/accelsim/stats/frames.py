"""DataFrames over counter families: one family with a MultiIndex of its
dimension names, and the per-stream summary table."""
from __future__ import annotations

import numpy as np
import pandas as pd

from accelsim.stats.arrays import named_view, select_sum
from accelsim.stats.naming import NamingTable, load_naming


def counters(stats, name: str):
    """Final totals of family ``name``: a read-only CounterArray sharing the
    core's memory (its base chain ends at the object that owns the counters)."""
    return named_view(stats.counters(name), stats.info(name), stats.stream_ids)


def frame(stats, name: str, per_kernel: bool = False, kernel_ids=None) -> pd.DataFrame:
    """Family ``name`` as a DataFrame with one ``value`` column and a
    MultiIndex of its dimension names (stream labels are CUDA stream ids).
    ``per_kernel``: the kernel table instead (index kernel_id + categories)."""
    view = counters(stats, name)
    if per_kernel:
        cats = [d for d in view.dims if view.kinds[d] == "category"]
        values = np.asarray(stats.kernel_counters(name))
        ids = list(kernel_ids) if kernel_ids is not None else list(range(values.shape[0]))
        levels = [ids, *[view.labels[d] for d in cats]]
        names = ["kernel_id", *cats]
    else:
        values = np.asarray(view)
        levels = [view.labels[d] for d in view.dims]
        names = list(view.dims)
    index = pd.MultiIndex.from_product(levels, names=names)
    out = pd.DataFrame({"value": values.reshape(-1)}, index=index)
    out.attrs.update(name=name, unit=view.unit, component=view.component)
    return out


def _per_stream(stats, naming: NamingTable, slots: int) -> dict:
    """Derived metrics from the live counters, summed per stream slot."""
    cols = {}
    families = set(stats.families())
    for d in naming.derived:
        if d.family not in families:
            continue
        view = counters(stats, d.family)
        if "stream" not in view.dims:
            continue
        values = select_sum(np.asarray(view), list(view.dims),
                            {k: list(map(str, v)) for k, v in view.labels.items()},
                            d.select, keep=("stream",))
        cols[f"{d.component}.{d.metric}"] = values[:slots]
    return cols


def streams_table(kernels: pd.DataFrame, stats, naming: NamingTable | None = None) -> pd.DataFrame:
    """One row per stream: its kernels, first start, last end, and every
    derived metric counted for it (attributed at the event site)."""
    naming = naming or load_naming()
    ran = kernels[~kernels["skipped"].astype(bool)] if "skipped" in kernels else kernels
    ids = [int(s) for s in stats.stream_ids] if stats is not None else \
        sorted(int(s) for s in ran["stream"].unique())
    out = pd.DataFrame({"stream": ids})
    grouped = ran.groupby("stream")
    out["kernels"] = out["stream"].map(grouped.size()).fillna(0).astype(int)
    for col, how in (("start_cycle", "min"), ("first_cta_cycle", "min"), ("end_cycle", "max"),
                     ("warp_instructions", "sum"), ("thread_instructions", "sum")):
        if col in ran:
            out[col] = out["stream"].map(grouped[col].agg(how))
    if stats is not None:
        for name, values in _per_stream(stats, naming, len(ids)).items():
            out[name] = values
    return out[out["kernels"] > 0].reset_index(drop=True)
