"""Simulator statistics on the Python side: named counter arrays, DataFrames,
the tidy table with Nsight Compute names, and saved results.

Names load on first use (pandas is imported only when a table is asked for),
so importing the simulator stays light.
"""
from __future__ import annotations

import importlib

_LAZY = {
    "CounterArray": "accelsim.stats.arrays",
    "select_sum": "accelsim.stats.arrays",
    "frame": "accelsim.stats.frames",
    "streams_table": "accelsim.stats.frames",
    "load_naming": "accelsim.stats.naming",
    "LoadedResult": "accelsim.stats.result_api",
    "StatsResultMixin": "accelsim.stats.result_api",
    "load_result": "accelsim.stats.result_api",
    "build_tidy": "accelsim.stats.tidy",
    "TIDY_COLUMNS": "accelsim.stats.tidy",
}
_RENAMED = {"TIDY_COLUMNS": "COLUMNS"}

__all__ = sorted(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), _RENAMED.get(name, name))
        globals()[name] = value
        return value
    raise AttributeError(f"module 'accelsim.stats' has no attribute {name!r}")
