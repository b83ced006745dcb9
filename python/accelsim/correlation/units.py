"""Bring values printed with scaled units back to base units.

Nsight Compute scales units for reading (``usecond``, ``Kbyte``, ``Gbyte/second``)
and nvprof prints ``us`` or ``MB/s``; the same metric can therefore arrive in
different units from two runs. Counters are compared in base units: second,
byte, hz, and plain counts.
"""
from __future__ import annotations

import pandas as pd

# SI prefixes as Nsight prints them. nvprof's byte prefixes are binary
# (its memcpy throughput "MB/s" is 2**20 bytes per second).
_SI = {"": 1.0, "K": 1e3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12,
       "m": 1e-3, "u": 1e-6, "n": 1e-9, "p": 1e-12}
_BINARY = {"B": 1.0, "KB": 2.0 ** 10, "MB": 2.0 ** 20, "GB": 2.0 ** 30, "TB": 2.0 ** 40}
# Words that take a prefix, and the base unit each stands for.
_BASES = {"second": "second", "s": "second", "byte": "byte", "hz": "hz", "Hz": "hz",
          "cycle": "cycle", "inst": "inst", "sector": "sector", "request": "request",
          "warp": "warp", "thread": "thread", "block": "block"}


def _word_scale(word: str) -> tuple[float, str] | None:
    """('Kbyte') -> (1000, 'byte'); ('us') -> (1e-6, 'second'); unknown -> None."""
    if word in _BINARY:
        return _BINARY[word], "byte"
    if word in _BASES:
        return 1.0, _BASES[word]
    prefix, rest = word[:1], word[1:]
    if prefix in _SI and rest in _BASES:
        return _SI[prefix], _BASES[rest]
    return None


def scale_of(unit: str) -> tuple[float, str]:
    """Factor that turns a value in ``unit`` into base units, and the base unit.

    Handles ``a`` and ``a/b``; units it does not know (``%``, ``inst/cycle``
    parts aside) are left as they are, factor 1.
    """
    unit = (unit or "").strip()
    parts = unit.split("/")
    if not unit or len(parts) > 2:
        return 1.0, unit
    maybe = [_word_scale(part) for part in parts]
    scaled = [s for s in maybe if s is not None]
    if len(scaled) != len(maybe):
        return 1.0, unit
    factor = scaled[0][0] / (scaled[1][0] if len(scaled) == 2 else 1.0)
    return factor, "/".join(s[1] for s in scaled)


def to_base_units(tidy: pd.DataFrame) -> pd.DataFrame:
    """A copy of a tidy frame with ``value`` and ``unit`` in base units."""
    out = tidy.copy()
    scales = {unit: scale_of(unit) for unit in out["unit"].fillna("").unique()}
    units = out["unit"].fillna("")
    out["value"] = out["value"] * units.map(lambda u: scales[u][0]).astype(float)
    out["unit"] = units.map(lambda u: scales[u][1])
    return out
