"""The per-stream summary as plain rows (no pandas): what ``result.streams``
shows and what ``accelsim run --json`` prints without loading pandas."""
from __future__ import annotations

from itertools import compress

# (kernel column, how streams combine it)
_KERNEL_COLUMNS = (("start_cycle", min), ("first_cta_cycle", min), ("end_cycle", max),
                   ("warp_instructions", sum), ("thread_instructions", sum))


def _stream_sums(values: list, info: dict, select: dict) -> list[int]:
    """Per stream slot, the sum of a family's flat (C-order) counters over
    every other dimension, taking only the ``select``-ed labels (plain Python:
    what ``arrays.select_sum`` does with NumPy)."""
    dims = info["dims"]
    sizes = [len(d["labels"]) for d in dims]
    allowed = []
    for d in dims:
        labels = [str(x) for x in d["labels"]]
        wanted = select.get(d["name"])
        allowed.append(None if wanted is None else {labels.index(x) for x in wanted if x in labels})
    keep = [d["name"] for d in dims].index("stream")
    out = [0] * sizes[keep]
    # Most cells are zero: compress() picks the others out at C speed, and
    # only those are decoded (part of every `accelsim run --json`'s start-up).
    for flat in compress(range(len(values)), values):
        value = values[flat]
        coords, rest = [], flat
        for size in reversed(sizes):
            coords.append(rest % size)
            rest //= size
        coords.reverse()
        if all(ok is None or c in ok for c, ok in zip(coords, allowed)):
            out[coords[keep]] += int(value)
    return out


def _family_sums(stats, family: str, select: dict):
    info = stats.info(family)
    if "stream" not in [d["name"] for d in info["dims"]]:
        return None
    if hasattr(stats, "counter_list"):  # the core's live counters: no NumPy needed
        return _stream_sums(stats.counter_list(family), info, select)
    import numpy as np  # a saved result's counters are NumPy arrays already

    from accelsim.stats.arrays import named_view, select_sum

    view = named_view(stats.counters(family), info, stats.stream_ids)
    return select_sum(np.asarray(view), list(view.dims),
                      {k: list(map(str, v)) for k, v in view.labels.items()},
                      select, keep=("stream",))


def _per_stream(stats, naming, slots: int) -> dict:
    """Derived metrics from the live counters, summed per stream slot."""
    cols = {}
    families = set(stats.families())
    for d in naming.derived:
        if d.family in families:
            sums = _family_sums(stats, d.family, d.select)
            if sums is not None:
                cols[f"{d.component}.{d.metric}"] = sums[:slots]
    return cols


def stream_rows(columns: dict, stats, naming=None) -> list[dict]:
    """One dict per stream that ran a kernel: stream, kernels, first start,
    last end, instructions, and every derived per-stream counter.
    ``columns``: the kernel table as {column: list of values}."""
    from accelsim.stats.naming import load_naming

    n = len(columns.get("id", columns.get("stream", [])))
    skipped = columns.get("skipped", [False] * n)
    ran = [i for i in range(n) if not bool(skipped[i])]
    streams = [int(s) for s in columns["stream"]] if n else []
    ids = ([int(s) for s in stats.stream_ids] if stats is not None
           else sorted({streams[i] for i in ran}))
    derived = _per_stream(stats, naming or load_naming(), len(ids)) if stats is not None else {}
    rows = []
    for slot, sid in enumerate(ids):
        mine = [i for i in ran if streams[i] == sid]
        if not mine:
            continue
        row = {"stream": sid, "kernels": len(mine)}
        for col, how in _KERNEL_COLUMNS:
            if col in columns:
                row[col] = how(columns[col][i] for i in mine)
        row.update({name: int(values[slot]) for name, values in derived.items()})
        rows.append(row)
    return rows
