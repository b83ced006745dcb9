"""Nsight Compute ``--csv --page raw`` exports.

One row per profiled launch (``ID`` counts launches of every kernel in order),
a units row under the header, and one column per metric. Pascal-era Nsight
names metrics with underscores (``smsp__inst_executed_sum``); Volta and later
use ``smsp__inst_executed.sum``: the reader keeps names as written and the
metric map knows both.
"""
from __future__ import annotations

import pandas as pd

from accelsim.correlation.csvblock import CsvBlock, split_units
from accelsim.correlation.widetable import check_kernel_names, wide_to_tidy

NAME = "nsight"
# Columns that identify the launch or its process rather than measure it.
ID_COLUMNS = {"ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time",
              "Context", "Stream", "Block Size", "Grid Size", "Device", "CC", "Function Name",
              "Demangled Name", "Mangled Name"}


def is_header(fields: list[str]) -> bool:
    return "ID" in fields and "Kernel Name" in fields and "Metric Name" not in fields


def from_block(block: CsvBlock, workload: str) -> pd.DataFrame:
    split_units(block, "ID")
    check_kernel_names(block, "Kernel Name")
    return wide_to_tidy(block, workload, "Kernel Name", ID_COLUMNS)
