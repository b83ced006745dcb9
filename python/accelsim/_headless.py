"""A matplotlib figure on the Agg canvas: built without pyplot, so nothing
global changes and no display is needed (savefig and rendering work headless).
Every figure the package draws starts here."""
from __future__ import annotations

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure


def new_figure(width: float, height: float) -> Figure:
    # Fixed margins rather than constrained layout: that layout costs most of
    # the drawing time with log axes, and reports draw many figures.
    figure = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(figure)
    return figure
