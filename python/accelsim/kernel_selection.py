"""Kernel selection: which kernels of a workload to simulate ("3,5-9").

A selection is kept as closed intervals, never expanded: ``1-99999999999``
costs two integers. It becomes a list of ids only against the kernels a
workload actually has (``KernelSelection.pick``)."""
from __future__ import annotations

import operator
import re
from dataclasses import dataclass

from accelsim.errors import ConfigError

#: Kernel ids are 32-bit in the trace format (``-kernel id``).
MAX_KERNEL_ID = 2**32 - 1


@dataclass(frozen=True)
class KernelSelection:
    """Sorted, merged, closed intervals of kernel ids."""

    intervals: tuple[tuple[int, int], ...]
    spec: str = ""

    def __contains__(self, kernel_id: int) -> bool:
        return any(lo <= kernel_id <= hi for lo, hi in self.intervals)

    def pick(self, available: list[int]) -> list[int]:
        """The ids of ``available`` this selection names; a ConfigError listing
        the available ids when it names none of them."""
        chosen = [i for i in available if i in self]
        if not chosen:
            known = _ranges_text(sorted(set(available))) or "none"
            raise ConfigError(f"kernel selection {self.spec!r} names no kernel of this "
                              f"workload; its kernel ids are: {known}", key="kernels")
        return chosen


def _ranges_text(ids: list[int]) -> str:
    """[1, 2, 3, 7] -> '1-3, 7' (short even for thousands of kernels)."""
    parts, start = [], None
    for n, i in enumerate(ids):
        if start is None:
            start = i
        if n + 1 == len(ids) or ids[n + 1] != i + 1:
            parts.append(str(start) if start == i else f"{start}-{i}")
            start = None
    return ", ".join(parts)


def _as_int(value) -> int | None:
    """An int for ints and NumPy integers; None for anything else (bools too)."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


# An id or a range of ids, ASCII digits only (int() would also take "+3",
# "1_000" and non-ASCII digits, none of which a kernel id is written as).
_PART = re.compile(r"\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?", re.ASCII)


def _interval(part) -> tuple[int, int]:
    if _as_int(part) is not None:
        part = _as_int(part)
    elif not isinstance(part, str):
        raise ConfigError(f"kernel selection: {part!r} is not an id or a range like 5-9",
                          key="kernels")
    text = str(part).strip()
    match = _PART.fullmatch(text)
    if match is None:
        if re.fullmatch(r"-\s*[0-9]+(\s*-.*)?", text):
            raise ConfigError(f"kernel selection: {text!r}: ids are not negative",
                              key="kernels")
        raise ConfigError(f"kernel selection: {text!r} is not an id or a range like 5-9",
                          key="kernels")
    first = int(match.group(1))
    last = int(match.group(2)) if match.group(2) is not None else first
    if last < first:
        raise ConfigError(f"kernel selection: range {text!r} runs backwards", key="kernels")
    if first > MAX_KERNEL_ID:
        raise ConfigError(f"kernel selection: {text!r}: kernel ids are at most {MAX_KERNEL_ID}",
                          key="kernels")
    return first, min(last, MAX_KERNEL_ID)


def _merge(intervals: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(intervals):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return tuple(out)


def parse_selection(spec) -> KernelSelection | None:
    """A selection from ``"3,5-9"``, an int, or an iterable of ints / such
    strings. None selects every kernel; a selection that names no id at all
    (``""``, ``",,,"``, ``[]``) is an error, not "every kernel": it is almost
    always a script's empty variable, and running everything would hide it."""
    if spec is None:
        return None
    if isinstance(spec, KernelSelection):
        return spec
    parts: list
    if isinstance(spec, str):
        parts = spec.split(",")
    elif _as_int(spec) is not None:
        parts = [_as_int(spec)]
    else:
        try:
            parts = list(spec)
        except TypeError:
            raise ConfigError(f"kernel selection must be ids like '3,5-9' or a list of ids, "
                              f"not {type(spec).__name__}", key="kernels") from None
    intervals = [_interval(p) for p in parts if not (isinstance(p, str) and not p.strip())]
    if not intervals:
        raise ConfigError(f"kernel selection {spec!r} names no kernel id (give ids like '3,5-9', "
                          "or leave the selection out to simulate every kernel)", key="kernels")
    text = spec if isinstance(spec, str) else ",".join(str(p) for p in parts)
    return KernelSelection(_merge(intervals), text)


def parse_kernels(spec) -> list[int] | None:
    """Kernel ids from a small selection, expanded (kept for callers that want
    a list; a range of more than a million ids is refused rather than built)."""
    selection = parse_selection(spec)
    if selection is None:
        return None
    if sum(hi - lo + 1 for lo, hi in selection.intervals) > 1_000_000:
        raise ConfigError(f"kernel selection {selection.spec!r} is too large to list; "
                          "use it with Simulator.run, which keeps it as ranges", key="kernels")
    return [i for lo, hi in selection.intervals for i in range(lo, hi + 1)]
