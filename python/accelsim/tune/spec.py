"""The public spec of a GPU (``--spec spec.yaml``): facts with their sources,
and how each becomes config values. See ``specs/TITANV.yaml``."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from accelsim._files import is_regular_file, not_a_file
from accelsim.config.units import UnitError, parse_value
from accelsim._yaml import read_yaml_document
from accelsim.errors import ConfigError

SPEC_DIR = Path(__file__).resolve().parent / "specs"

# fact -> (kind for unit parsing, config keys it sets directly)
_DIRECT = {
    "sm_count": ("count", ("sm_count",)),
    "base_clock": ("MHz", ("core_clock", "icnt_clock", "l2_clock")),
    "memory_clock": ("MHz", ("dram_clock",)),
    "memory_type": ("choice", ("dram_type",)),
    "l2_size": ("bytes", ("l2_size",)),
    "unified_l1_shared_per_sm": ("bytes", ("unified_l1_shmem_size",)),
    "shared_per_sm": ("bytes", ("shmem_size",)),
    "shared_per_block": ("bytes", ("shmem_per_cta",)),
    "max_threads_per_sm": ("count", ("max_threads_per_sm",)),
    "registers_per_sm": ("count", ("registers_per_sm",)),
}
_OTHER = {"boost_clock": "MHz", "memory_bus_width": "count", "memory_channel_width": "count",
          "compute_capability": "str"}


@dataclass
class Spec:
    name: str
    facts: dict          # fact -> value in canonical units
    cited: dict          # fact -> source id (a key of ``sources``)
    path: str = ""
    sources: dict = field(default_factory=dict)   # source id -> what it is
    written: dict = field(default_factory=dict)   # fact -> the value as the file wrote it

    def cite(self, fact: str) -> str:
        return f"spec {fact} = {self.raw(fact)} [{self.cited[fact]}]"

    def raw(self, fact: str):
        return self.written[fact]

    def entries(self) -> dict[str, tuple[object, str]]:
        """Config key -> (value, citation) for every fact that maps to config."""
        out = {}
        for fact, (_, keys) in _DIRECT.items():
            if fact in self.facts:
                for key in keys:
                    out[key] = (self.facts[fact], self.cite(fact))
        return out


def load_spec(path_or_name) -> Spec:
    """A spec file by path, or a bundled one by name (``"TITANV"``)."""
    path = Path(str(path_or_name))
    if not is_regular_file(path):
        bundled = SPEC_DIR / f"{path_or_name}.yaml"
        if not is_regular_file(bundled):
            why = not_a_file(path, "spec file")
            if why != "does not exist":
                raise ConfigError(f"{path}: {why}", key="spec", path=str(path))
            known = ", ".join(p.stem for p in SPEC_DIR.glob("*.yaml"))
            raise ConfigError(f"no spec file at {path_or_name!r} (bundled: {known})", key="spec")
        path = bundled
    _, data = read_yaml_document(path, "spec file")
    if not isinstance(data, dict) or not isinstance(data.get("facts"), dict):
        raise ConfigError(f"{path}: a spec needs a 'facts' mapping", path=str(path), key="facts")
    sources = data.get("sources") or {}
    facts, cited, raw = {}, {}, {}
    for fact, entry in data["facts"].items():
        where = f"{path}: facts.{fact}"
        if fact not in _DIRECT and fact not in _OTHER:
            known = ", ".join(sorted({*_DIRECT, *_OTHER}))
            raise ConfigError(f"{where}: unknown fact (known: {known})", key=fact, path=str(path))
        if not (isinstance(entry, list) and len(entry) == 2):
            raise ConfigError(f"{where}: write [value, source]", key=fact, path=str(path))
        value, source = entry
        if source not in sources:
            raise ConfigError(f"{where}: source {source!r} is not listed under 'sources'",
                              key=fact, path=str(path))
        kind = _DIRECT[fact][0] if fact in _DIRECT else _OTHER[fact]
        try:
            facts[fact] = str(value) if kind == "str" else parse_value(kind, value)
        except UnitError as exc:
            raise ConfigError(f"{where}: {exc}", key=fact, path=str(path)) from None
        cited[fact], raw[fact] = str(source), value
    return Spec(str(data.get("name") or path.stem), facts, cited, str(path),
                {str(k): str(v) for k, v in sources.items()}, raw)
