"""Turning raw config entries (strings with units, numbers, lists) into
checked canonical values. Every error names the key, the value and what is
allowed, plus the file and line when the entry came from a file."""
from __future__ import annotations

from accelsim.config.params import STRUCTURED_KEYS, ParamSpec, UnitFieldSpec, closest_key, exec_unit_fields, param_specs
from accelsim.config.units import UnitError, parse_value
from accelsim.errors import ConfigError

Where = tuple  # (path or None, line or None)

# Shared memory per SM is at most a few hundred KiB on any GPU; this bound only
# keeps sizes inside the core's 64-bit integers with room to spare.
MAX_CARVEOUT_BYTES = 1024**3


def fail(key: str, message: str, where: Where = (None, None)) -> ConfigError:
    path, line = where
    prefix = f"{path}:{line}: " if path and line else (f"{path}: " if path else "")
    return ConfigError(f"{prefix}config key '{key}': {message}", key=key, path=path, line=line)


def unknown_key(key, where: Where = (None, None)) -> ConfigError:
    if not isinstance(key, str):  # a dict config keyed by None, 7, ...
        return fail(repr(key), f"config keys are parameter names (strings), not {type(key).__name__}",
                    where)
    near = closest_key(key)
    hint = f"; did you mean '{near}'?" if near else ""
    return fail(key, f"unknown key{hint}", where)


def scalar(spec: ParamSpec, raw, where: Where = (None, None)):
    try:
        value = parse_value(spec.kind, raw)
    except UnitError as exc:
        raise fail(spec.name, f"bad value {raw!r}: {exc}; allowed {spec.range_text()}",
                   where) from None
    if spec.kind == "choice":
        if value not in spec.choices:
            raise fail(spec.name, f"bad value {raw!r}: allowed {spec.range_text()}", where)
    elif spec.kind != "bool" and not spec.min <= value <= spec.max:
        raise fail(spec.name, f"value {raw!r} out of range: allowed {spec.range_text()}", where)
    return value


def exec_units(raw, where: Where = (None, None)) -> list[dict]:
    """Each entry: a name, the numeric fields the core declares
    (``exec_unit_fields``: units_per_sm, latency, ...) and its classes."""
    if not isinstance(raw, list):
        raise fail("exec_units", f"expected a list of units, got {raw!r}", where)
    numeric = exec_unit_fields()
    allowed = ["name", *numeric, "classes"]
    units, seen = [], set()
    for i, entry in enumerate(raw):
        key = f"exec_units[{i}]"
        if not isinstance(entry, dict):
            raise fail(key, f"expected a mapping, got {entry!r}", where)
        for field in entry:
            if field not in allowed:
                raise fail(f"{key}.{field}", "unknown field; fields are " + ", ".join(allowed), where)
        for field in ("name", "classes", *(f for f, s in numeric.items() if s.required)):
            if field not in entry:
                raise fail(f"{key}.{field}", "missing", where)
        unit: dict = {"name": _unit_name(f"{key}.name", entry["name"], where)}
        for field, spec in numeric.items():
            unit[field] = (_unit_number(f"{key}.{field}", spec, entry[field], where) if field in entry
                           else spec.default)
        unit["classes"] = _unit_classes(f"{key}.classes", entry["classes"], where)
        if unit["name"] in seen:
            raise fail(f"{key}.name", f"duplicate unit {unit['name']!r}", where)
        seen.add(unit["name"])
        units.append(unit)
    return units


def _unit_name(key: str, raw, where: Where) -> str:
    try:
        return parse_value("choice", raw)
    except UnitError as exc:
        raise fail(key, f"bad value {raw!r}: {exc}", where) from None


def _unit_number(key: str, spec: UnitFieldSpec, raw, where: Where) -> int:
    try:
        value = parse_value(spec.kind, raw)
    except UnitError as exc:
        raise fail(key, f"bad value {raw!r}: {exc}", where) from None
    if not spec.min <= value <= spec.max:
        raise fail(key, f"value {raw!r} out of range [{int(spec.min)}, {int(spec.max)}]", where)
    return value


def _unit_classes(key: str, raw, where: Where) -> list[str]:
    if isinstance(raw, str):
        raw = [raw]
    if not raw or not all(isinstance(c, str) and c for c in raw):
        raise fail(key, f"expected a list of unit class names, got {raw!r}", where)
    return [c.strip() for c in raw]


def opcode_units(raw, where: Where = (None, None)) -> dict[str, str]:
    if not isinstance(raw, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in raw.items()):
        raise fail("opcode_units", f"expected a mapping OPCODE: unit_class, got {raw!r}", where)
    return {k.strip().upper(): v.strip() for k, v in raw.items()}


def carveouts(raw, where: Where = (None, None)) -> list[int]:
    if not isinstance(raw, list) or not raw:
        raise fail("shmem_carveouts", f"expected a list of sizes, got {raw!r}", where)
    out = []
    for item in raw:
        try:
            size = parse_value("bytes", item)
        except UnitError as exc:
            raise fail("shmem_carveouts", f"bad size {item!r}: {exc}", where) from None
        if not 0 <= size <= MAX_CARVEOUT_BYTES:
            raise fail("shmem_carveouts", f"size {item!r} out of range: allowed "
                       f"[0, {MAX_CARVEOUT_BYTES // 1024**2} MiB]", where)
        out.append(size)
    return sorted(out)


def entry(key: str, raw, where: Where = (None, None)):
    """Validate one top-level entry; returns its canonical value."""
    specs = param_specs()
    if key in specs:
        return scalar(specs[key], raw, where)
    if key == "exec_units":
        return exec_units(raw, where)
    if key == "opcode_units":
        return opcode_units(raw, where)
    if key == "shmem_carveouts":
        return carveouts(raw, where)
    assert key not in STRUCTURED_KEYS
    raise unknown_key(key, where)
