"""Values with units: ``"6 MiB"``, ``"1132 MHz"``, ``"28 cycles"``.

Each parameter kind has one canonical unit (bytes, cycles, MHz); values are
converted to it once, when a config is built. Bare numbers are taken in the
canonical unit. KB/MB/GB are binary (1024-based), as GPU documentation and the
GPGPU-Sim configs use them; kB is decimal.
"""
from __future__ import annotations

import math
import re

_NUMBER = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-z/%]*)\s*$")

_BYTE_UNITS = {
    "": 1, "b": 1, "byte": 1, "bytes": 1,
    "kib": 1024, "kb": 1024, "mib": 1024**2, "mb": 1024**2, "gib": 1024**3, "gb": 1024**3,
    "tib": 1024**4, "tb": 1024**4,
}
_DECIMAL_KILO = {"kB": 1000}
_FREQ_UNITS = {"": 1.0, "mhz": 1.0, "ghz": 1000.0, "khz": 1e-3, "hz": 1e-6}
_CYCLE_UNITS = {"", "cycle", "cycles", "clk", "clks", "clock", "clocks"}
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}

CANONICAL_UNIT = {
    "count": "", "cycles": "cycles", "bytes": "B", "MHz": "MHz",
    "real": "", "percent": "%", "bool": "", "choice": "",
}


class UnitError(ValueError):
    """A value that cannot be read in the parameter's kind."""


def _split(text: str) -> tuple[float, str]:
    match = _NUMBER.match(text)
    if not match:
        raise UnitError(f"expected a number with an optional unit, got {text!r}")
    return _finite(float(match.group(1)), text), match.group(2)


def _finite(number: float, text) -> float:
    if not math.isfinite(number):
        raise UnitError(f"expected a finite number, got {text!r}")
    return number


def _integral(value: float, text: str) -> int:
    if not math.isfinite(value):  # a finite number times its unit can overflow (1e306 GiB)
        raise UnitError(f"{text!r} is too large")
    if value != int(value):
        raise UnitError(f"{text!r} is not a whole number")
    return int(value)


def parse_value(kind: str, value):
    """Convert ``value`` (number, bool or unit string) to the kind's canonical unit."""
    if kind == "bool":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise UnitError(f"expected true/false, got {value!r}")
    if kind == "choice":
        if not isinstance(value, str):
            raise UnitError(f"expected a name, got {value!r}")
        return value.strip()
    if isinstance(value, bool):
        raise UnitError(f"expected a number, got {value!r}")
    if isinstance(value, (int, float)):
        number, unit = _finite(float(value), value), ""
    else:
        number, unit = _split(str(value))
    return _convert(kind, number, unit, value)


def _convert(kind: str, number: float, unit: str, original):
    text = str(original)
    if kind == "bytes":
        if unit in _DECIMAL_KILO:
            return _integral(number * _DECIMAL_KILO[unit], text)
        if unit.lower() not in _BYTE_UNITS:
            raise UnitError(f"unknown size unit {unit!r} in {text!r} (use B, KiB, MiB, GiB)")
        return _integral(number * _BYTE_UNITS[unit.lower()], text)
    if kind == "MHz":
        if unit.lower() not in _FREQ_UNITS:
            raise UnitError(f"unknown frequency unit {unit!r} in {text!r} (use MHz or GHz)")
        return number * _FREQ_UNITS[unit.lower()]
    if kind == "cycles":
        if unit.lower() not in _CYCLE_UNITS:
            raise UnitError(f"unknown unit {unit!r} in {text!r} (use cycles)")
        return _integral(number, text)
    if kind == "percent":
        if unit not in ("", "%"):
            raise UnitError(f"unknown unit {unit!r} in {text!r} (use %)")
        return number
    if unit:
        raise UnitError(f"{kind} values take no unit, got {text!r}")
    return _integral(number, text) if kind == "count" else number


def format_value(kind: str, value) -> str:
    """The value as written in a config file, in a readable unit."""
    if kind == "bytes":
        for unit, size in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
            if value >= size and value % size == 0:
                return f"{value // size} {unit}"
        return f"{value} B"
    if kind == "MHz":
        return f"{value:g} MHz"
    if kind == "cycles":
        return f"{value} cycles"
    if kind == "percent":
        return f"{value:g} %"
    if kind == "bool":
        return "true" if value else "false"
    return str(value)
