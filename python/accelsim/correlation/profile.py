"""``read_profile``: any supported profiler export into one tidy DataFrame.

The format is recognised from the header row, so callers never say which
profiler wrote a file. Columns: workload, kernel, launch, metric, value, unit;
values are as printed (units in ``unit``), launches count from 0 per kernel.
"""
from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path

import pandas as pd

from accelsim.correlation import nsight, nvprof
from accelsim.correlation.csvblock import read_block
from accelsim.correlation.widetable import TIDY_COLUMNS
from accelsim.errors import AccelsimWarning, ProfileError

# (recognise header, build tidy rows); the first whose test accepts the header wins.
FORMATS = [
    (nsight.is_header, nsight.from_block),
    (nvprof.is_metrics_header, nvprof.metrics_from_block),
    (nvprof.is_trace_header, nvprof.trace_from_block),
    (nvprof.is_summary_header, nvprof.summary_error),
]


def _any_header(fields: list[str]) -> bool:
    return any(test(fields) for test, _ in FORMATS)


def read_profile_file(path: str | Path, workload: str | None = None) -> pd.DataFrame:
    """Read one nvprof or Nsight Compute CSV export; ``workload`` defaults to the file stem."""
    block = read_block(path, _any_header)
    name = workload or Path(path).stem
    build = next(build for test, build in FORMATS if test(block.header))
    tidy = build(block, name)
    _warn_dropped(block)
    if tidy.empty:  # else a report of nothing, with exit status 0
        raise ProfileError(f"{path}:{block.header_line}: a header but no kernel launch rows "
                           "with values (nothing to correlate)", str(path),
                           block.header_line, None)
    return tidy


def _warn_dropped(block) -> None:
    if not block.dropped:
        return
    shown = ", ".join(f"line {line} {column!r} = {text}" for line, column, text in block.dropped[:8])
    more = f" and {len(block.dropped) - 8} more" if len(block.dropped) > 8 else ""
    warnings.warn(f"{block.path}: {len(block.dropped)} negative value(s) dropped (profiler "
                  f"counts are never negative): {shown}{more}", AccelsimWarning, stacklevel=4)


def _sources(source) -> list[tuple[str | None, Path]]:
    """Normalise path | [paths] | {workload: path or [paths]} to (workload, path) pairs."""
    if isinstance(source, Mapping):
        pairs = []
        for name, paths in source.items():
            pairs += [(name, p) for _, p in _sources(paths)]
        return pairs
    if isinstance(source, (str, Path)):
        return [(None, Path(source))]
    if isinstance(source, Iterable):
        return [pair for item in source for pair in _sources(item)]
    raise TypeError(f"expected a path, a list of paths or a mapping, got {type(source).__name__}")


def read_profile(source, workload: str | None = None) -> pd.DataFrame:
    """Read profiler exports into one tidy frame.

    ``source``: a path, a list of paths, or ``{workload: path or [paths]}``.
    ``workload`` names the workload of every file (else the mapping key, else the
    file stem). Several files of one workload (e.g. nvprof metrics plus its GPU
    trace) combine: their launches line up by order per kernel.
    """
    frames = [read_profile_file(path, workload or name) for name, path in _sources(source)]
    if not frames:
        return pd.DataFrame(columns=TIDY_COLUMNS)
    if len(frames) == 1:  # already numbered from 0: concat would only copy it
        return frames[0]
    return pd.concat(frames, ignore_index=True)
