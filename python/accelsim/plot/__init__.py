"""Figures from results (matplotlib, no pyplot state): each function takes
results and returns a ``matplotlib.figure.Figure``."""
from __future__ import annotations

from accelsim.plot.cache import cache_outcomes
from accelsim.plot.timeline import stream_timeline

__all__ = ["cache_outcomes", "stream_timeline"]
