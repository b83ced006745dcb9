"""Stream timeline: one row per stream, one bar per kernel from its start (its
first CTA on an SM) to its end cycle, so overlapping kernels of different streams show as bars
stacked in time. Several results are drawn one above the other on a shared
cycle axis (e.g. concurrent vs serialized)."""
from __future__ import annotations

from matplotlib import colormaps

from accelsim.plot._figure import as_list, new_figure, stream_label


def _draw(ax, kernels, title):
    ran = kernels[~kernels["skipped"].astype(bool)] if "skipped" in kernels else kernels
    streams = sorted(ran["stream"].unique())
    row = {s: i for i, s in enumerate(streams)}
    colors = colormaps["tab10"]
    start_col = next(c for c in ("first_cta_cycle", "start_cycle", "launch_cycle") if c in ran)
    for n, k in enumerate(ran.itertuples(index=False)):
        start, end = getattr(k, start_col), k.end_cycle
        y = row[k.stream]
        ax.barh(y, end - start, left=start, height=0.6, color=colors(n % 10), edgecolor="black",
                linewidth=0.5)
        ax.text(start + (end - start) / 2, y, str(k.id), ha="center", va="center", fontsize=8)
    slots = (dict(zip(ran["stream"], ran["stream_slot"])) if "stream_slot" in ran
             else {s: i for i, s in enumerate(streams)})
    ax.set_yticks(range(len(streams)), [stream_label(s, slots[s]) for s in streams])
    ax.invert_yaxis()
    end = ran["end_cycle"].max() if len(ran) else 0
    ax.set_title(f"{title + ': ' if title else ''}{len(ran)} kernels, {end} cycles", fontsize=10)


def stream_timeline(results, width: float = 9.0):
    """Figure with one timeline per result (a result, a list, or {title: result}).
    Bars are labelled with kernel ids."""
    items = as_list(results)
    heights = [max(1, r.kernels["stream"].nunique()) for _, r in items]
    fig = new_figure(width, 0.9 + sum(0.45 * h + 0.6 for h in heights))
    axes = fig.subplots(len(items), 1, sharex=True, squeeze=False,
                        gridspec_kw={"height_ratios": heights})[:, 0]
    for ax, (title, r) in zip(axes, items):
        _draw(ax, r.kernels, title)
    axes[-1].set_xlabel("core cycle")
    fig.tight_layout()
    return fig
