"""The metric map: which hardware metric each simulator counter is compared with.

The map is data (``configs/metrics/default.yaml``, documented there); this module
loads and checks it. A map error is a ConfigError naming the entry.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from accelsim._paths import data_dir
from accelsim.correlation.expr import Formula, compile_formula
from accelsim._yaml import read_yaml_document
from accelsim.errors import ConfigError

ERROR_KINDS = ("mae", "nrmse")


@dataclass(frozen=True)
class Counter:
    name: str
    title: str
    unit: str
    error: str                              # "mae" or "nrmse"
    hw: tuple[tuple[str, Formula], ...]     # (generation, formula), tried in order
    sim: tuple[Formula, ...]                # tried in order


@dataclass(frozen=True)
class MetricMap:
    counters: tuple[Counter, ...]
    mix: tuple[Counter, ...]                # instruction classes, "total" among them
    num_sms_metrics: tuple[str, ...]
    path: str

    def counter(self, name: str) -> Counter:
        for counter in self.counters:
            if counter.name == name:
                return counter
        raise KeyError(name)


def default_map_path() -> Path:
    return data_dir() / "metrics" / "default.yaml"


def _formulas(value, where: str, path: str) -> tuple[Formula, ...]:
    items = value if isinstance(value, list) else [value]
    try:
        return tuple(compile_formula(str(item)) for item in items)
    except ValueError as exc:
        raise ConfigError(f"{path}: {where}: {exc}", key=where, path=path) from None


def _counter(name: str, entry, path: str, kind_default: str = "mae") -> Counter:
    if not isinstance(entry, dict) or not isinstance(entry.get("hw"), dict) or not entry["hw"]:
        raise ConfigError(f"{path}: {name}: needs an 'hw' mapping of generation -> formula",
                          key=name, path=path)
    error = entry.get("error", kind_default)
    if error not in ERROR_KINDS:
        raise ConfigError(f"{path}: {name}: error must be one of {ERROR_KINDS}, not {error!r}",
                          key=f"{name}.error", path=path)
    hw = tuple((gen, _formulas(text, f"{name}.hw.{gen}", path)[0])
               for gen, text in entry["hw"].items())
    # Without a sim formula the simulator is read by Nsight names, like the hardware.
    fallback = entry["hw"].get("nsight")
    sim_text = entry.get("sim", fallback)
    sim = _formulas(sim_text, f"{name}.sim", path) if sim_text is not None else ()
    return Counter(name, str(entry.get("title", name)), str(entry.get("unit", "")), error, hw, sim)


def load_metric_map(path: str | Path | None = None) -> MetricMap:
    """Load a metric map (default: the bundled ``configs/metrics/default.yaml``)."""
    path = str(path or default_map_path())
    _, data = read_yaml_document(Path(path), "metric map")
    if not isinstance(data, dict) or not isinstance(data.get("counters"), dict):
        raise ConfigError(f"{path}: needs a 'counters' mapping", key="counters", path=path)
    counters = tuple(_counter(n, e, path) for n, e in data["counters"].items())
    mix = tuple(_counter(n, e, path) for n, e in (data.get("instruction_mix") or {}).items())
    if mix and "total" not in {m.name for m in mix}:
        raise ConfigError(f"{path}: instruction_mix needs a 'total' entry",
                          key="instruction_mix.total", path=path)
    sms = tuple(data.get("num_sms") or ())
    return MetricMap(counters, mix, sms, path)
