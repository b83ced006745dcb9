"""The naming table (``configs/stats/tidy.yaml``): tidy metric names and the
Nsight Compute names of the counters that have a hardware equivalent."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from accelsim._paths import data_dir
from accelsim.errors import ConfigError


@dataclass(frozen=True)
class Derived:
    """A row summed from chosen cells of one family."""

    component: str
    metric: str
    unit: str
    family: str
    select: dict = field(default_factory=dict)  # category dim -> labels
    nsight: str = ""


@dataclass(frozen=True)
class KernelColumn:
    """A column of the kernel table reported as a tidy row."""

    column: str
    component: str
    metric: str
    unit: str
    nsight: str = ""


@dataclass(frozen=True)
class NamingTable:
    """The naming table: metric templates, derived per-stream metrics, kernel columns."""

    templates: dict
    derived: tuple
    kernel_columns: tuple

    def metric_name(self, family: str, component: str, cats: dict) -> str:
        """Tidy metric for one cell: the family's template, else the family
        name without its component, followed by the labels."""
        low = {k: str(v).lower() for k, v in cats.items()}
        template = self.templates.get(family)
        if template is not None:
            return template.format(**low)
        local = family[len(component) + 1:] if family.startswith(component + ".") else family
        return ".".join([local, *low.values()])


def _derived(entry: dict, where: str) -> Derived:
    try:
        return Derived(component=entry["component"], metric=entry["metric"],
                       unit=entry.get("unit", ""), family=entry["family"],
                       select={k: list(v) for k, v in (entry.get("select") or {}).items()},
                       nsight=entry.get("nsight", ""))
    except (KeyError, TypeError) as e:
        raise ConfigError(f"{where}: derived entry {entry!r} lacks {e}") from None


def _column(name: str, entry: dict, where: str) -> KernelColumn:
    try:
        return KernelColumn(column=name, component=entry["component"], metric=entry["metric"],
                            unit=entry.get("unit", ""), nsight=entry.get("nsight", ""))
    except (KeyError, TypeError) as e:
        raise ConfigError(f"{where}: kernel column {name!r} lacks {e}") from None


def parse_naming(data: dict, where: str) -> NamingTable:
    if not isinstance(data, dict) or data.get("version") != 1:
        raise ConfigError(f"{where}: not a version 1 naming table")
    return NamingTable(
        templates=dict(data.get("templates") or {}),
        derived=tuple(_derived(e, where) for e in data.get("derived") or []),
        kernel_columns=tuple(_column(k, v, where)
                             for k, v in (data.get("kernel_columns") or {}).items()))


@lru_cache(maxsize=4)
def load_naming(path: str | None = None) -> NamingTable:
    """The bundled table, or the one at ``path``."""
    from accelsim._yaml_cache import bundled_document

    p = Path(path) if path else data_dir() / "stats" / "tidy.yaml"
    return parse_naming(bundled_document(p, "naming", _read_naming_file), str(p))


def _read_naming_file(path: Path):
    from accelsim._yaml import read_yaml_document

    return read_yaml_document(path, "naming table")[1]
