"""The validated, immutable GPU configuration object."""
from __future__ import annotations

import copy

from accelsim.config import validate
from accelsim.config.params import STRUCTURED_KEYS, param_specs
from accelsim.config.units import format_value
from accelsim.errors import ConfigError

# Shown first in the repr: what a reader wants to see at a glance.
_HEADLINE = ("sm_count", "core_clock", "schedulers_per_sm", "scheduler", "l1d_hit_latency",
             "l2_size", "memory_partitions", "dram_type", "memory_model")


class Config:
    """A complete GPU configuration in canonical units (bytes, cycles, MHz).

    Build one with :func:`accelsim.load_config`; derive variants with
    :meth:`with_overrides`. Parameters read as attributes or items.
    """

    def __init__(self, values: dict, name: str = "custom", source: str | None = None,
                 unmodelled: list | None = None, where: dict | None = None, *,
                 provenance: dict | None = None,
                 defaults_applied: list | None = None, defaults_not_applied: list | None = None):
        init = super().__setattr__  # the one place fields are set: a Config never changes
        init("_values", values)
        init("name", name)
        init("source", source)
        #: Options of an imported GPGPU-Sim config that accelsim does not model.
        init("unmodelled", list(unmodelled or []))
        #: Imported configs: GPGPU-Sim defaults taken for absent options, as (option, value),
        #: and absent options whose default is not taken, as (option, reason).
        init("defaults_applied", list(defaults_applied or []))
        init("defaults_not_applied", list(defaults_not_applied or []))
        #: Where a tool took values from (the tuner: spec, measurement, fit, search),
        #: parameter -> source; empty for a config read from a file as it stands.
        init("provenance", dict(provenance or {}))
        init("_where", dict(where or {}))  # key -> (file, line) it was read from

    def __copy__(self) -> "Config":
        """Shares the validated values (never changed after construction; every
        accessor copies them out) and copies the lists and dicts it exposes."""
        return Config(self._values, self.name, self.source, self.unmodelled, self._where,
                      provenance=self.provenance, defaults_applied=self.defaults_applied,
                      defaults_not_applied=self.defaults_not_applied)

    def __setattr__(self, key: str, value) -> None:
        raise AttributeError(f"a Config is immutable (setting {key!r}): derive a new one with "
                             "with_overrides(), or pass the field to Config.from_entries()")

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"a Config is immutable (deleting {key!r})")

    # -- construction ------------------------------------------------------
    @classmethod
    def from_entries(cls, entries: dict, name: str = "custom", source: str | None = None,
                     lines: dict | None = None, base: "Config | None" = None,
                     unmodelled: list | None = None, **fields) -> "Config":
        """Validate raw entries (unit strings allowed) over ``base`` (or defaults).
        ``fields``: the keyword-only fields of the constructor (provenance,
        defaults_applied, defaults_not_applied)."""
        values = base.to_dict() if base else _defaults()
        where = dict(base._where) if base else {}
        # Errors point into the file only for entries that were read from one.
        origin = source if lines is not None else None
        for key, raw in entries.items():
            where[key] = (origin, (lines or {}).get(key))
            values[key] = validate.entry(key, raw, where[key])
        values["name"] = name
        _check_in_core(values, where)
        return cls(values, name, source, unmodelled, where, **fields)

    def with_overrides(self, overrides: dict) -> "Config":
        """A new Config with some entries replaced (values may carry units)."""
        if not isinstance(overrides, dict):
            raise ConfigError(f"overrides must be a dict, got {type(overrides).__name__}")
        # A value overridden here no longer comes from where the tool found it.
        provenance = {k: v for k, v in self.provenance.items() if k not in overrides}
        return Config.from_entries(overrides, self.name, self.source, base=self,
                                   unmodelled=self.unmodelled, provenance=provenance)

    # -- access ------------------------------------------------------------
    def __getitem__(self, key: str):
        if key not in self._values or key == "name":
            raise validate.unknown_key(key)
        return copy.deepcopy(self._values[key])

    def __getattr__(self, key: str):
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return self[key]
        except ConfigError as exc:
            raise AttributeError(str(exc)) from None

    def __contains__(self, key: str) -> bool:
        return key in self._values and key != "name"

    def __eq__(self, other) -> bool:
        return isinstance(other, Config) and self._values == other._values

    def __hash__(self):
        return hash((self.name, tuple(sorted((k, repr(v)) for k, v in self._values.items()))))

    def to_dict(self) -> dict:
        """Every entry in canonical units (a deep copy)."""
        return copy.deepcopy(self._values)

    def core_dict(self) -> dict:
        """What the C++ core takes (``config_from_dict``)."""
        return self.to_dict()

    def diff(self, other: "Config") -> dict:
        """Entries whose values differ: key -> (self, other)."""
        return {k: (v, other._values.get(k)) for k, v in self._values.items()
                if other._values.get(k) != v and k != "name"}

    def describe(self):
        """A DataFrame: name, value (with unit), default, doc."""
        import pandas as pd

        rows = [{"name": s.name, "value": format_value(s.kind, self._values[s.name]),
                 "default": format_value(s.kind, s.default), "kind": s.kind, "doc": s.doc}
                for s in param_specs().values()]
        return pd.DataFrame(rows)

    def to_yaml(self) -> str:
        """The config as a file accelsim can load back, values with units."""
        from accelsim.config.files import dump_yaml

        return dump_yaml(self)

    def __repr__(self) -> str:
        specs = param_specs()
        shown = ", ".join(f"{k}={format_value(specs[k].kind, self._values[k])}"
                          for k in _HEADLINE if k in specs)
        units = ", ".join(u["name"] for u in self._values["exec_units"])
        extra = f", {len(self.unmodelled)} unmodelled options" if self.unmodelled else ""
        return f"<Config {self.name!r}: {shown}; units [{units}]{extra}>"


def _defaults() -> dict:
    values = {name: spec.default for name, spec in param_specs().items()}
    values.update({"exec_units": [], "opcode_units": {}, "shmem_carveouts": []})
    assert set(STRUCTURED_KEYS) <= set(values)
    return values


def _check_in_core(values: dict, where: dict) -> None:
    """Cross-field rules live in C++ (config::validate); run them once here.
    Their errors name the key; the file and line it came from are added here."""
    from accelsim import _core

    try:
        _core.check_config(values)
    except ConfigError as exc:
        raise core_error(exc, where) from None


def core_error(exc: ConfigError, where: dict) -> ConfigError:
    """A ConfigError of the core, under the user's key (``gpu.l2[3].size`` is
    ``l2_size``) with the file and line that key was read from."""
    key = user_key(exc.key or "")
    detail = str(exc).split("': ", 1)[-1] if str(exc).startswith("config key '") else str(exc)
    path, line = where.get(key, (None, None))
    if path is None and key in where:
        detail += " (the value was set by an override)"
    return validate.fail(key, detail, (path, line))


def user_key(core_key: str) -> str:
    """The config key behind a core component's parameter name:
    ``gpu.l2[0].size`` -> ``l2_size``, ``gpu.sm[3].l1d.miss_queue`` -> ``l1d_miss_queue``."""
    import re

    parts = [re.sub(r"\[\d+\]$", "", p) for p in core_key.split(".") if p]
    specs = param_specs()
    for n in (2, 1):
        if len(parts) >= n and "_".join(parts[-n:]) in specs:
            return "_".join(parts[-n:])
    return core_key
