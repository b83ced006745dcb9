"""Kernel names as a key that profilers and traces agree on.

Nsight Compute prints ``vecAdd`` (or ``vecAdd(float*, ...)``, or
``void vecAdd<float>(...)``), nvprof and traces print the mangled
``_Z6vecAddIfEvPT_S1_S1_i``. Matching uses the qualified function name without
return type, template arguments or parameters.
"""
from __future__ import annotations

import re

_LENGTH_NAME = re.compile(r"(\d+)")


def _mangled_key(name: str) -> str | None:
    """Qualified name from an Itanium-mangled symbol: ``_ZN2ns3fooE...`` -> ``ns::foo``."""
    rest = name[2:]
    nested = rest.startswith("N")
    rest = rest[1:] if nested else rest
    parts = []
    while True:
        match = _LENGTH_NAME.match(rest)
        if not match:
            break
        length = int(match.group(1))
        start = match.end()
        parts.append(rest[start:start + length])
        rest = rest[start + length:]
        # Template arguments ("I...E") end the name; a plain name ends after one part.
        if not nested or not rest[:1].isdigit():
            break
    return "::".join(parts) if parts else None


def _strip_brackets(text: str, open_: str, close: str) -> str:
    """Remove bracketed groups (nested too): ``foo<bar<int>>`` -> ``foo``."""
    out, depth = [], 0
    for char in text:
        if char == open_:
            depth += 1
        elif char == close and depth:
            depth -= 1
        elif depth == 0:
            out.append(char)
    return "".join(out)


def kernel_key(name: str) -> str:
    """The name both sides of a correlation agree on (see the module doc)."""
    name = str(name).strip()
    if name.startswith("_Z"):
        key = _mangled_key(name)
        if key:
            return key
    plain = _strip_brackets(_strip_brackets(name, "(", ")"), "<", ">").strip()
    # "void ns::kernel" -> "ns::kernel": the return type precedes the last space.
    return plain.split(" ")[-1] if plain else name
