"""Reading and writing one tunable value of a Config, whether a declared
scalar (``l2_rop_latency``) or a field of an execution unit
(``exec.sp.latency``)."""
from __future__ import annotations

from accelsim.config.params import param_specs
from accelsim.errors import ConfigError


def get(config, key: str):
    if key.startswith("exec."):
        _, unit, field = key.split(".")
        return _unit(config["exec_units"], unit, key)[field]
    return config[key]


# A per-opcode latency class of 0 takes its unit's latency: the unit it runs on.
_CLASS_UNIT = {"sass_latency_half": "sp"}


def effective(config, key: str):
    """The value ``key`` acts with: a latency class left at 0 (its unit's
    latency) reads as that unit's latency, so a fit starts from what runs."""
    value = get(config, key)
    if value == 0 and key.startswith("sass_latency_"):
        unit = _CLASS_UNIT.get(key, "sfu")  # MUFU functions run on the SFU
        return get(config, f"exec.{unit}.latency")
    return value


def overrides(config, values: dict) -> dict:
    """``values`` (keys as in ``get``) as a ``with_overrides`` dict."""
    out, units = {}, None
    for key, value in values.items():
        if key.startswith("exec."):
            units = units if units is not None else config["exec_units"]
            _, unit, field = key.split(".")
            _unit(units, unit, key)[field] = int(value)
        else:
            out[key] = value
    if units is not None:
        out["exec_units"] = units
    return out


def apply(config, values: dict):
    return config.with_overrides(overrides(config, values)) if values else config


def _unit(units: list, name: str, key: str) -> dict:
    for u in units:
        if u["name"] == name:
            return u
    raise ConfigError(f"{key}: the config has no execution unit {name!r}", key=key)


def bounds(key: str) -> tuple[float, float]:
    if key.startswith("exec."):
        return (1, 10000)
    spec = param_specs()[key]
    return spec.min, spec.max
