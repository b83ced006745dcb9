"""A headless figure (Agg canvas): nothing global, no display needed."""
from __future__ import annotations

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure


def new_figure(width: float, height: float) -> Figure:
    figure = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(figure)
    return figure


def as_list(results) -> list:
    """One result, a list of them, or {title: result} as [(title, result)]."""
    if isinstance(results, dict):
        return list(results.items())
    if isinstance(results, (list, tuple)):
        return [(getattr(r, "name", None) or f"run {i}", r) for i, r in enumerate(results)]
    return [(None, results)]
