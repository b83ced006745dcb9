"""nvprof ``--csv`` exports: per-launch metrics/events, and the GPU trace.

``nvprof --csv --print-gpu-trace --metrics ...`` writes one row per launch with
a ``Kernel`` and ``Correlation_ID`` column; ``nvprof --csv --print-gpu-trace``
alone writes the GPU trace (``Start``, ``Duration``, ..., ``Name``) where memory
copies appear between kernels. Both have a units row under the header.
"""
from __future__ import annotations

import pandas as pd

from accelsim.correlation.csvblock import CsvBlock, split_units
from accelsim.correlation.widetable import check_kernel_names, wide_to_tidy
from accelsim.errors import ProfileError

METRICS_ID_COLUMNS = {"Device", "Context", "Stream", "Kernel", "Correlation_ID"}
TRACE_ID_COLUMNS = {"Start", "Device", "Context", "Stream", "Name", "Correlation_ID",
                    "SrcMemType", "DstMemType"}


def is_metrics_header(fields: list[str]) -> bool:
    return "Kernel" in fields and "Correlation_ID" in fields


def is_trace_header(fields: list[str]) -> bool:
    return "Start" in fields and "Duration" in fields and "Name" in fields


def is_summary_header(fields: list[str]) -> bool:
    # The default (summary) output averages launches and writes units inside values.
    return "Invocations" in fields and ("Metric Name" in fields or "Event Name" in fields)


def metrics_from_block(block: CsvBlock, workload: str) -> pd.DataFrame:
    split_units(block, "Kernel")
    check_kernel_names(block, "Kernel")
    return wide_to_tidy(block, workload, "Kernel", METRICS_ID_COLUMNS)


def trace_from_block(block: CsvBlock, workload: str) -> pd.DataFrame:
    split_units(block, "Name")
    check_kernel_names(block, "Name")
    name = block.column("Name")
    # "[CUDA memcpy HtoD]", "[CUDA memset]": transfers, not kernels.
    block.rows = [row for row in block.rows if not row[1][name].startswith("[CUDA ")]
    return wide_to_tidy(block, workload, "Name", TRACE_ID_COLUMNS)


def summary_error(block: CsvBlock, workload: str) -> pd.DataFrame:
    raise ProfileError(f"{block.path}:{block.header_line}: nvprof summary output averages "
                       f"launches; re-run with --print-gpu-trace for one row per launch",
                       block.path, block.header_line, None)
