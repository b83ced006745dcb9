"""Simulator statistics on the Python side: named counter arrays, DataFrames,
the tidy table with Nsight Compute names, and saved results."""
from __future__ import annotations

from accelsim.stats.arrays import CounterArray, select_sum
from accelsim.stats.frames import frame, streams_table
from accelsim.stats.naming import load_naming
from accelsim.stats.result_api import LoadedResult, StatsResultMixin, load_result
from accelsim.stats.tidy import COLUMNS as TIDY_COLUMNS
from accelsim.stats.tidy import build_tidy

__all__ = ["CounterArray", "LoadedResult", "StatsResultMixin", "TIDY_COLUMNS", "build_tidy",
           "frame", "load_naming", "load_result", "select_sum", "streams_table"]
