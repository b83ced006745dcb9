"""The parameter table, read from the C++ core where it is declared once
(``cpp/config/params.def``), so Python and C++ can never disagree."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from accelsim.config.units import CANONICAL_UNIT

# Structured (non-scalar) entries of a config, validated in config.py.
STRUCTURED_KEYS = ("exec_units", "opcode_units", "shmem_carveouts")


@dataclass(frozen=True)
class ParamSpec:
    """One config parameter as the core declares it (``cpp/config/params.def``)."""

    name: str
    kind: str          # count, cycles, bytes, MHz, real, percent, bool, choice
    default: object
    min: float
    max: float
    choices: tuple[str, ...]
    doc: str

    @property
    def unit(self) -> str:
        return CANONICAL_UNIT[self.kind]

    def range_text(self) -> str:
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "bool":
            return "true or false"
        lo = int(self.min) if self.min == int(self.min) else self.min
        hi = int(self.max) if self.max == int(self.max) else self.max
        return f"[{lo}, {hi}] {self.unit}".rstrip()


@lru_cache(maxsize=1)
def param_specs() -> dict[str, ParamSpec]:
    from accelsim import _core

    specs = {}
    for d in _core.param_declarations():
        choices = tuple(c for c in d["choices"].split("|") if c)
        specs[d["name"]] = ParamSpec(d["name"], d["kind"], d["default"], d["min"], d["max"],
                                     choices, d["doc"])
    return specs


@dataclass(frozen=True)
class UnitFieldSpec:
    """A numeric field of an ``exec_units`` entry (``cpp/config/exec_unit_fields.def``)."""

    name: str
    kind: str          # count or cycles
    default: int
    min: float
    max: float
    required: bool
    doc: str


@lru_cache(maxsize=1)
def exec_unit_fields() -> dict[str, UnitFieldSpec]:
    from accelsim import _core

    return {d["name"]: UnitFieldSpec(d["name"], d["kind"], d["default"], d["min"], d["max"],
                                     d["required"], d["doc"]) for d in _core.exec_unit_fields()}


def closest_key(key: str) -> str | None:
    """The valid key nearest to a misspelt one, for error messages."""
    import difflib  # only on an error: not part of every start-up

    names = list(param_specs()) + list(STRUCTURED_KEYS)
    match = difflib.get_close_matches(key, names, n=1, cutoff=0.5)
    return match[0] if match else None
