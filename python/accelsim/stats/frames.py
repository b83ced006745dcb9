"""DataFrames over counter families: one family with a MultiIndex of its
dimension names, and the per-stream summary table."""
from __future__ import annotations

import numpy as np
import pandas as pd

from accelsim.stats.arrays import named_view
from accelsim.stats.naming import NamingTable


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


def streams_table(kernels: pd.DataFrame, stats, naming: NamingTable | None = None) -> pd.DataFrame:
    """One row per stream: its kernels, first start, last end, and every
    derived metric counted for it (attributed at the event site)."""
    from accelsim.stats.streams import stream_rows

    columns = {c: kernels[c].tolist() for c in kernels.columns}
    rows = stream_rows(columns, stats, naming)
    out = pd.DataFrame(rows)
    if out.empty:
        out = pd.DataFrame(columns=["stream", "kernels"])
    return out
