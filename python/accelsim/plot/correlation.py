"""Correlation scatter plots, drawn by the correlator itself
(``accelsim.correlation.figures``); named here too, beside the other figures."""
from __future__ import annotations

from accelsim.correlation.figures import correlation_grid, correlation_scatter

__all__ = ["correlation_grid", "correlation_scatter"]
