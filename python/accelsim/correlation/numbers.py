"""Turn the text of one profiler cell into a number.

Profilers print numbers for people: Nsight Compute writes ``"1,024.00"`` (thousands
separators) and, for instanced metrics, one value per instance joined by ``"; "``;
nvprof writes utilization levels as ``"Low (1)"``. Each helper returns ``None`` for
text that is not a number, so the caller decides whether that is an error.
"""
from __future__ import annotations

import math
import re

# Cells that mean "no usable value" rather than a number: not collected, or (nvprof)
# a hardware counter that overflowed during the launch.
MISSING = frozenset({"", "n/a", "N/A", "nan", "NaN", "-", "<OVERFLOW>"})

_LEVEL = re.compile(r"^[A-Za-z]+ \((\d+)\)$")  # nvprof utilization: "Idle (0)" .. "Max (10)"


def parse_scalar(text: str) -> float | None:
    """``"1,024.00"`` -> 1024.0, ``"Low (1)"`` -> 1.0, anything else non-numeric -> None."""
    try:  # the common case first: float() takes surrounding whitespace, no "Low (1)" parses
        value = float(text)
    except ValueError:
        pass
    else:
        return value if math.isfinite(value) else None
    text = text.strip()
    level = _LEVEL.match(text)
    if level:
        return float(level.group(1))
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def parse_cell(text: str) -> float | None:
    """A scalar, or the sum of an instanced metric's ``"a; b; c"`` values.

    Instanced Nsight metrics (per opcode, per source line, ...) list one value per
    instance; for the counters we correlate (e.g. ``inst_executed`` per opcode)
    the kernel's total is their sum, which is what a single number must mean.
    """
    if ";" not in text:
        return parse_scalar(text)
    parsed = [parse_scalar(part) for part in text.split(";") if part.strip()]
    parts = [part for part in parsed if part is not None]
    if not parts or len(parts) != len(parsed):
        return None
    return float(sum(parts))

