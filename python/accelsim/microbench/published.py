"""Figures measured on real cards (``configs/published/measured.yaml``).

Each figure names the microbenchmark twin that reproduces its measurement
(``quantity``, with generator ``options`` that follow the source's method),
its value and unit as the source states them, the source and where in it the
number is, and, when the model is known to miss it, why (``known_gap``).
The file is checked on load: a malformed entry is a ConfigError naming the
card and the figure.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from accelsim._paths import data_dir

#: Units a figure may carry, and what the twin must report for each.
UNITS = {"cycles", "B/clk", "B/clk/SM", "GB/s", "flop/clk/SM", "op/clk/SM"}
#: Not a microbenchmark: the config's kernel launch latency is the simulated value.
LAUNCH = "launch_lat"
_FIELDS = {"quantity", "value", "unit", "source", "where", "how", "options", "known_gap"}


@dataclass(frozen=True)
class Figure:
    quantity: str
    value: float
    unit: str
    source: str
    where: str
    how: str = ""
    options: dict = field(default_factory=dict)
    known_gap: str = ""

    @property
    def scope(self) -> str:
        """memory, alu or launch: which part of the model the figure tests."""
        if self.quantity == LAUNCH:
            return "launch"
        if self.quantity.split("_")[0] in ("fp32", "fp64", "fp16", "int32", "sfu"):  # latency and rate
            return "alu"
        return "memory"


@dataclass(frozen=True)
class CardFigures:
    config: str                 # bundled config name
    card: str                   # the card the config models
    figures: tuple[Figure, ...]
    measured_on: str = ""       # the card measured, when not the config's own
    clock_mhz: float | None = None  # core clock the cycles were counted at (if not the config's)


def measured_path() -> Path:
    return data_dir() / "published" / "measured.yaml"


@lru_cache(maxsize=1)
def _load() -> tuple[dict, dict]:
    path = measured_path()
    with open(path) as f:
        doc = yaml.safe_load(f)
    sources = doc.get("sources", {})
    cards = {name: _card(path, sources, name, entry) for name, entry in doc.get("cards", {}).items()}
    return sources, cards


def _card(path: Path, sources: dict, name: str, entry: dict) -> CardFigures:
    on = entry.get("measured_on") or {}
    figures = tuple(_figure(path, sources, name, i, f) for i, f in enumerate(entry.get("figures", [])))
    return CardFigures(name, entry.get("card", name), figures, on.get("card", ""),
                       float(on["clock"]) if "clock" in on else None)


def _figure(path: Path, sources: dict, card: str, index: int, f: dict) -> Figure:
    from accelsim.errors import ConfigError
    from accelsim.microbench.suite import BENCHMARKS

    where = f"{path}: card {card}, figure {index + 1}"
    unknown = set(f) - _FIELDS
    if unknown:
        raise ConfigError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}", key="measured")
    for key in ("quantity", "value", "unit", "source", "where"):
        if key not in f:
            raise ConfigError(f"{where}: missing field {key!r}", key="measured")
    if f["quantity"] != LAUNCH and f["quantity"] not in BENCHMARKS:
        raise ConfigError(f"{where}: quantity {f['quantity']!r} is no microbenchmark twin", key="measured")
    if f["unit"] not in UNITS:
        raise ConfigError(f"{where}: unit {f['unit']!r} (known: {', '.join(sorted(UNITS))})", key="measured")
    if f["source"] not in sources:
        raise ConfigError(f"{where}: source {f['source']!r} is not in sources", key="measured")
    return Figure(f["quantity"], float(f["value"]), f["unit"], f["source"], str(f["where"]),
                  str(f.get("how", "")), dict(f.get("options") or {}), str(f.get("known_gap", "")))


def sources() -> dict:
    """Source key -> {title, ref}."""
    return _load()[0]


def cards() -> dict[str, CardFigures]:
    """Bundled config name -> its measured figures."""
    return _load()[1]


def figures_for(name: str) -> CardFigures | None:
    """The figures of a bundled config name or of a reference config that
    models the same card (the aliases of configs/published/cards.yaml)."""
    from accelsim.config.check import card_for

    all_cards = cards()
    if name in all_cards:
        return all_cards[name]
    key, _ = card_for(name)
    return all_cards.get(key) if key else None
