"""Per-stream cache accesses by outcome: one group of stacked bars per
result, one bar per stream, segments = outcomes (HIT, MISS, MSHR_HIT, ...)."""
from __future__ import annotations

import numpy as np
from matplotlib import colormaps

from accelsim.plot._figure import as_list, new_figure, stream_label
from accelsim.stats.arrays import select_sum

READS = ["GLOBAL_ACC_R", "LOCAL_ACC_R", "CONST_ACC_R", "TEXTURE_ACC_R"]


def _per_stream_outcomes(result, family, access_types):
    view = result.counters(family)
    labels = {k: [str(x) for x in v] for k, v in view.labels.items()}
    select = {"access_type": access_types} if access_types else {}
    values = select_sum(np.asarray(view), list(view.dims), labels, select,
                        keep=("stream", "outcome"))
    return values, view.labels["stream"], view.labels["outcome"]


def cache_outcomes(results, cache: str = "l2", access_types=READS, width: float = 9.0):
    """Stacked bars of ``<cache>.accesses`` per stream and outcome, summed over
    the cache's instances and the chosen access types (None: all)."""
    items = as_list(results)
    fig = new_figure(width, 3.6)
    ax = fig.subplots()
    colors = colormaps["tab10"]
    x, ticks, names = 0.0, [], []
    drawn = set()
    for title, r in items:
        values, streams, outcomes = _per_stream_outcomes(r, f"{cache}.accesses", access_types)
        used = values.sum(axis=1) > 0
        for si in np.flatnonzero(used):
            bottom = 0
            for oi, outcome in enumerate(outcomes):
                v = int(values[si, oi])
                if v == 0:
                    continue
                ax.bar(x, v, bottom=bottom, color=colors(oi % 10), width=0.8,
                       label=None if outcome in drawn else outcome, edgecolor="black",
                       linewidth=0.4)
                drawn.add(outcome)
                bottom += v
            ticks.append(x)
            names.append(f"{title + ' ' if title else ''}{stream_label(streams[si], int(si))}")
            x += 1
        x += 0.6  # gap between results
    ax.set_xticks(ticks, names, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(f"{cache.upper()} sector accesses")
    ax.set_title(f"{cache.upper()} accesses per stream by outcome", fontsize=10)
    ax.margins(y=0.25)  # headroom so the legend covers no bar
    if drawn:
        ax.legend(fontsize=8, ncols=len(drawn), loc="upper right")
    fig.tight_layout()
    return fig
