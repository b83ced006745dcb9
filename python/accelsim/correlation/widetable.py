"""Turn a profiler's wide table (one row per launch, one column per metric) tidy.

Both nvprof's per-launch output and Nsight Compute's raw page have that shape; the
readers only differ in which columns identify the launch and how the kernel is
named. Output columns: workload, kernel, launch, metric, value, unit.
"""
from __future__ import annotations

import math
from typing import cast

import pandas as pd

from accelsim.correlation.csvblock import CsvBlock
from accelsim.correlation.numbers import MISSING, parse_cell
from accelsim.errors import ProfileError

TIDY_COLUMNS = ["workload", "kernel", "launch", "metric", "value", "unit"]


def launch_numbers(names: list[str]) -> list[int]:
    """0-based launch index of each row among the rows of the same kernel (file order)."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        out.append(seen.get(name, 0))
        seen[name] = out[-1] + 1
    return out


def _column_values(block: CsvBlock, index: int) -> list[float | None] | None:
    """Parsed values of one column, None for a text column (e.g. a device name).

    A column with a unit, or where other cells are numbers, measures something:
    text in it is a corrupt export, reported with its line and field.
    """
    # The usual column, plain non-negative numbers, in one pass: an export has
    # hundreds of metric columns of a few launches each.
    try:
        values = [float(fields[index]) for _, fields in block.rows]
    except ValueError:
        pass
    else:
        if values and all(map(math.isfinite, values)) and min(values) >= 0:
            return cast("list[float | None]", values)
    return _checked_values(block, index)


def _checked_values(block: CsvBlock, index: int) -> list[float | None] | None:
    """``_column_values`` cell by cell: missing cells, text, ``1,024.00``, ``a; b``."""
    cells = [(line, fields[index]) for line, fields in block.rows]
    missing = [text.strip() in MISSING for _, text in cells]
    parsed = [None if gone else parse_cell(text) for (_, text), gone in zip(cells, missing)]
    has_unit = bool(block.units and block.units[index].strip())
    if all(value is None for value in parsed) and not has_unit:
        return None  # a text attribute (device name, process name), not a measurement
    for n, ((line, text), value) in enumerate(zip(cells, parsed)):
        if value is None and not missing[n]:
            name = block.header[index]
            raise ProfileError(f"{block.path}:{line}: field {name!r}: {text!r} is not a number",
                               block.path, line, name)
        if value is not None and value < 0:  # no counter, time or rate is negative
            block.dropped.append((line, block.header[index], text.strip()))
            parsed[n] = None
    return parsed


def wide_to_tidy(block: CsvBlock, workload: str, kernel_column: str,
                 id_columns: set[str], rename=None) -> pd.DataFrame:
    """Tidy rows for every numeric, non-identifier column of ``block``.

    ``rename`` maps a header name to the metric name to record (e.g. to give the
    GPU-trace ``Duration`` column a distinct name); unknown names are kept.
    """
    kernel_at = block.column(kernel_column)
    kernels = [fields[kernel_at] for _, fields in block.rows]
    launches = launch_numbers(kernels)
    kernel_of: list[str] = []
    launch_of: list[int] = []
    metric_of: list[str] = []
    value_of: list[float] = []
    unit_of: list[str] = []
    for index, name in enumerate(block.header):
        if name in id_columns:
            continue
        values = _column_values(block, index)
        if values is None:
            continue
        rows = list(zip(kernels, launches, values))
        if None in values:
            rows = [row for row in rows if row[2] is not None]
        if not rows:
            continue
        kernel_cells, launch_cells, value_cells = zip(*rows)
        kernel_of += kernel_cells
        launch_of += launch_cells
        value_of += value_cells
        metric_of += [rename.get(name, name) if rename else name] * len(rows)
        unit_of += [block.units[index].strip() if block.units else ""] * len(rows)
    if not value_of:
        return pd.DataFrame.from_records([], columns=TIDY_COLUMNS)
    # Column by column: faster than from_records on the small tables of one export.
    return pd.DataFrame(dict(zip(TIDY_COLUMNS, ([workload] * len(value_of), kernel_of, launch_of,
                                                metric_of, value_of, unit_of))))


def check_kernel_names(block: CsvBlock, kernel_column: str) -> None:
    """Every data row must name its kernel: matching is by name."""
    at = block.column(kernel_column)
    for line, fields in block.rows:
        if not fields[at].strip():
            raise ProfileError(f"{block.path}:{line}: field {kernel_column!r} is empty",
                               block.path, line, kernel_column)
