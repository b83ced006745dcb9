"""Correlation scatter plots: hardware (x) against simulator (y), one point per kernel.

Functions take a correlation point table (columns counter, hw, sim, kernel,
launch, error_kind, error_pct, as ``Correlation.table``) and return a
``matplotlib.figure.Figure``. Figures are built without pyplot, so nothing here
touches global state or needs a display (the Agg canvas renders them).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.text import Text

from accelsim._headless import new_figure
from accelsim.correlation import errstats
from accelsim.correlation.names import kernel_key

# Spread beyond which a linear axis squeezes most points into a corner.
LOG_RANGE = 100.0


def wants_log(values) -> bool:
    """Log-log when every value is positive and they span more than LOG_RANGE."""
    values = np.asarray(values, float)
    if values.size == 0 or np.any(values <= 0):
        return False
    return values.max() / values.min() > LOG_RANGE


def _padded(low: float, high: float, log: bool) -> tuple[float, float]:
    if log:
        return low / 1.3, high * 1.3
    margin = (high - low) * 0.06
    return low - margin, high + margin


def _caption(points: pd.DataFrame) -> str:
    kind = points["error_kind"].iloc[0] if "error_kind" in points else "mae"
    error = errstats.error_of(kind, points["hw"], points["sim"])
    r = errstats.pearson(points["hw"], points["sim"])
    r_text = "n/a" if math.isnan(r) else f"{r:.3f}"
    return f"{kind.upper()} {error:.1f}%  r = {r_text}  n = {len(points)}"


def _label(row) -> str:
    launch = row.get("launch", -1)
    suffix = f" #{int(launch)}" if pd.notna(launch) and launch >= 0 else ""
    return f"{kernel_key(row['kernel'])}{suffix}"


# Places tried for a label, in points from its point: beside it, then further
# above or below, to the right first.
_OFFSETS = [(dx, dy) for step in range(5) for dy in (3 + 9 * step, -11 - 9 * step)
            for dx in (3, -3)]


def _place_labels(ax, rows) -> None:
    """Name the given points where a label overlaps no other label and stays
    inside the axes (measured on the figure's renderer, so log axes and long
    names are exact); a label with no free place near its point is left out."""
    renderer = ax.figure.canvas.get_renderer()
    inside = ax.get_window_extent(renderer)
    placed: list = []  # window extents of the labels kept
    for _, row in rows:
        text, point = _label(row), (row["hw"], row["sim"])
        for dx, dy in _OFFSETS:
            label = ax.annotate(text, point, fontsize=7, xytext=(dx, dy),
                                textcoords="offset points", ha="left" if dx > 0 else "right",
                                arrowprops={"arrowstyle": "-", "color": "0.6", "lw": 0.5}
                                if abs(dy) > 11 else None)
            label.update_positions(renderer)  # the text's place, without its leader line
            box = Text.get_window_extent(label, renderer).padded(1)
            fits = (inside.x0 <= box.x0 and box.x1 <= inside.x1 and inside.y0 <= box.y0
                    and box.y1 <= inside.y1)
            if fits and not any(box.overlaps(other) for other in placed):
                placed.append(box)
                break
            label.remove()


def _draw(ax, points: pd.DataFrame, title: str, n_labels: int, unit: str = "") -> None:
    hw, sim = points["hw"].to_numpy(float), points["sim"].to_numpy(float)
    log = wants_log(np.concatenate([hw, sim]))
    ax.scatter(hw, sim, s=18, alpha=0.8, color="tab:blue", edgecolors="none")
    low, high = float(min(hw.min(), sim.min())), float(max(hw.max(), sim.max()))
    if low == high:  # a single value still needs a visible x = y segment
        low, high = (low * 0.5, high * 1.5) if low > 0 else (low - 1, high + 1)
    ax.plot([low, high], [low, high], color="gray", linestyle="--", linewidth=1, label="x = y")
    if log:
        ax.set_xscale("log")
        ax.set_yscale("log")
    limits = _padded(low, high, log)  # same range on both axes: x = y is the diagonal
    ax.set_xlim(*limits)
    ax.set_ylim(*limits)
    worst = points.reindex(points["error_pct"].abs().sort_values(ascending=False).index)
    # exact points need no name
    named = [(i, row) for i, row in worst.head(n_labels).iterrows()
             if pd.notna(row["error_pct"]) and row["error_pct"] != 0]
    _place_labels(ax, named)
    ax.set_title(f"{title}\n{_caption(points)}", fontsize=9)
    suffix = f" ({unit})" if unit else ""
    ax.set_xlabel(f"hardware{suffix}", fontsize=8)
    ax.set_ylabel(f"simulator{suffix}", fontsize=8)
    ax.tick_params(labelsize=7)


def correlation_scatter(table: pd.DataFrame, counter: str, *, title: str | None = None,
                        n_labels: int = 3, unit: str = "") -> Figure:
    """One counter's scatter with the x = y line, error and correlation in the title,
    the ``n_labels`` worst kernels labelled (labels never overlap) and ``unit``
    on both axes."""
    points = table[table["counter"] == counter]
    if points.empty:
        raise ValueError(f"no paired values for counter {counter!r}")
    figure = new_figure(4.5, 4.0)
    _draw(figure.add_subplot(), points, title or counter, n_labels, unit)
    figure.subplots_adjust(left=0.17, right=0.95, bottom=0.12, top=0.86)
    return figure


def correlation_grid(table: pd.DataFrame, *, titles: dict[str, str] | None = None,
                     columns: int = 3, n_labels: int = 2,
                     units: dict[str, str] | None = None) -> Figure:
    """Every counter of ``table`` in one figure, for a report."""
    counters = list(dict.fromkeys(table["counter"]))
    if not counters:
        raise ValueError("the table has no paired values to plot")
    columns = min(columns, len(counters))
    rows = math.ceil(len(counters) / columns)
    figure = new_figure(3.6 * columns, 3.3 * rows)
    for index, counter in enumerate(counters):
        ax = figure.add_subplot(rows, columns, index + 1)
        title = (titles or {}).get(counter, counter)
        _draw(ax, table[table["counter"] == counter], title, n_labels,
              (units or {}).get(counter, ""))
    inch = 1.0 / figure.get_figheight()  # margins in inches, whatever the row count
    figure.subplots_adjust(left=0.07, right=0.98, bottom=0.5 * inch, top=1 - 0.6 * inch,
                           wspace=0.35, hspace=0.55)
    return figure
