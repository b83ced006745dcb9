"""The points of a sweep: a grid (cartesian product) or an explicit list,
checked against the parameter declarations before anything runs.

A point's identity is what it simulates: the swept values that differ from the
base config, in canonical units. So ``"6 MiB"`` and ``6291456`` are the same
point, and a point that sets a parameter to the base's own value is the base
point. Stored results are keyed by that identity (see storage.py).
"""
from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass

from accelsim.config import Config
from accelsim.config.params import STRUCTURED_KEYS, param_specs
from accelsim.config.units import format_value
from accelsim.config.validate import entry, unknown_key
from accelsim.errors import ConfigError


@dataclass(frozen=True)
class Point:
    index: int          # position in this sweep's list of points
    raw: dict           # the values as the user wrote them
    values: dict        # every swept parameter -> canonical value (base value if not set)
    key: str            # identity: hash of the values that differ from the base

    def label(self) -> str:
        specs = param_specs()
        return ", ".join(f"{k}={format_value(specs[k].kind, v)}" for k, v in self.values.items())


def fingerprint(data) -> str:
    """A short stable hash of JSON-able data."""
    text = json.dumps(data, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def make_points(base: Config, grid: dict | None, points: list | None) -> tuple[list[str], list[Point]]:
    """The swept parameter names (in order) and the checked points."""
    if (grid is None) == (points is None):
        if grid is None:
            return [], [_point(base, [], 0, {})]  # no grid: the base config alone
        raise ConfigError("give either grid= or points=, not both")
    raw_points = _expand(grid) if grid is not None else _explicit(points)
    params: list[str] = []
    for raw in raw_points:
        params += [k for k in raw if k not in params]
    for name in params:
        _check_name(name)
    out: list[Point] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(raw_points):
        point = _point(base, params, i, raw)
        if point.key in seen:
            raise ConfigError(f"points {seen[point.key]} and {i} simulate the same thing "
                              f"({point.label() or 'the base config'})")
        seen[point.key] = i
        out.append(point)
    return params, out


def _expand(grid) -> list[dict]:
    if not isinstance(grid, dict) or not grid:
        raise ConfigError(f"grid must be a non-empty dict parameter -> list of values, got {grid!r}")
    for name, values in grid.items():
        if not isinstance(values, (list, tuple)) or not values:
            raise ConfigError(f"grid[{name!r}] must be a non-empty list of values, e.g. "
                              f"[{values!r}], got {values!r}", key=str(name))
        _check_name(name)
        canonical: dict = {}
        for v in values:
            c = _canonical(name, v)
            if c in canonical:
                raise ConfigError(f"grid[{name!r}]: values {canonical[c]!r} and {v!r} are the same",
                                  key=name)
            canonical[c] = v
    names = list(grid)
    return [dict(zip(names, combo)) for combo in itertools.product(*(grid[n] for n in names))]


def _explicit(points) -> list[dict]:
    if not isinstance(points, (list, tuple)) or not points:
        raise ConfigError(f"points must be a non-empty list of dicts, got {points!r}")
    for i, p in enumerate(points):
        if not isinstance(p, dict):
            raise ConfigError(f"points[{i}] must be a dict parameter -> value, got {p!r}")
    return [dict(p) for p in points]


def _check_name(name) -> None:
    if not isinstance(name, str):
        raise ConfigError(f"parameter names are strings, got {name!r}")
    if name in STRUCTURED_KEYS:
        raise ConfigError(f"'{name}' is a structured entry and cannot be swept; sweep scalar "
                          "parameters (see Config.describe())", key=name)
    if name not in param_specs():
        raise unknown_key(name)


def _canonical(name: str, raw):
    return entry(name, raw)  # ConfigError names the key, the value and what is allowed


def _point(base: Config, params: list[str], index: int, raw: dict) -> Point:
    try:
        values = {name: _canonical(name, raw[name]) if name in raw else base[name]
                  for name in params}
        base.with_overrides(dict(raw))  # cross-field rules (checked in the core)
    except ConfigError as exc:
        raise ConfigError(f"point {index} {raw!r}: {exc}", key=exc.key) from None
    differs = {k: v for k, v in values.items() if v != base[k]}
    return Point(index, dict(raw), values, fingerprint(differs))
