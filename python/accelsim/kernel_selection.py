"""Kernel selection: which kernels of a workload to simulate ("3,5-9")."""
from __future__ import annotations

from accelsim.errors import ConfigError


def _ids(part: str) -> list[int]:
    text = part.strip()
    lo, dash, hi = text.partition("-")
    try:
        if not dash:
            return [int(lo)]
        first, last = int(lo), int(hi)
    except ValueError:
        raise ConfigError(f"kernel selection: {text!r} is not an id or a range like 5-9") from None
    if last < first:
        raise ConfigError(f"kernel selection: range {text!r} runs backwards")
    return list(range(first, last + 1))


def parse_kernels(spec) -> list[int] | None:
    """Kernel ids (as in the traces' ``-kernel id``) from ``"3,5-9"``, an int,
    or an iterable of ints / such strings. None (or "") selects every kernel."""
    if spec is None or spec == "":
        return None
    if isinstance(spec, int):
        parts = [str(spec)]
    elif isinstance(spec, str):
        parts = spec.split(",")
    else:
        parts = [str(s) for s in spec]
    ids = sorted({i for p in parts if p.strip() for i in _ids(p)})
    if any(i < 0 for i in ids):
        raise ConfigError("kernel selection: ids are not negative")
    return ids
