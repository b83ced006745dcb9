"""The per-stream summary as plain rows (no pandas): what ``result.streams``
shows and what ``accelsim run --json`` prints without loading pandas."""
from __future__ import annotations

# (kernel column, how streams combine it)
_KERNEL_COLUMNS = (("start_cycle", min), ("first_cta_cycle", min), ("end_cycle", max),
                   ("warp_instructions", sum), ("thread_instructions", sum))


def _per_stream(stats, naming, slots: int) -> dict:
    """Derived metrics from the live counters, summed per stream slot."""
    import numpy as np

    from accelsim.stats.arrays import select_sum
    from accelsim.stats.frames import counters

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
