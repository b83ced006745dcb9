"""Checks for arguments that cross into the C++ core: a wrong type or a value
out of range becomes a ConfigError naming the argument and what is allowed,
never a pybind11 cast error."""
from __future__ import annotations

import operator

from accelsim.errors import ConfigError

#: The largest cycle budget: cycle counters are 64-bit and budgets are added to them.
MAX_CYCLES = 2**62


def bounded_int(name: str, value, low: int, high: int):
    """``value`` as an int in [low, high] (bools and floats refused)."""
    if isinstance(value, bool):
        raise ConfigError(f"{name} must be an integer in [{low}, {high}], got {value!r}", key=name)
    try:
        number = operator.index(value)  # int, NumPy integers; not floats or strings
    except TypeError:
        raise ConfigError(f"{name} must be an integer in [{low}, {high}], got {value!r} "
                          f"({type(value).__name__})", key=name) from None
    if not low <= number <= high:
        raise ConfigError(f"{name} = {number} is out of range: allowed [{low}, {high}]", key=name)
    return number


def max_cycles(value) -> int | None:
    """None (no budget) or a cycle budget in [1, MAX_CYCLES]."""
    return None if value is None else bounded_int("max_cycles", value, 1, MAX_CYCLES)


def path_text(name: str, value) -> str:
    """A path argument as text (str or os.PathLike)."""
    import os

    try:
        return os.fsdecode(os.fspath(value))
    except TypeError:
        raise ConfigError(f"{name} must be a path (str or os.PathLike), got "
                          f"{type(value).__name__}", key=name) from None
