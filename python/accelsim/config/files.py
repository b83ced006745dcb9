"""Config files: YAML with values that carry units, one key per parameter.

Reserved top-level keys: ``name``, ``description`` and ``base`` (the name or
path of a config this one starts from). Errors carry the file and line.
"""
from __future__ import annotations

import copy
import os
from pathlib import Path

from accelsim._files import is_regular_file, not_a_file
from accelsim._paths import data_dir
from accelsim.config.config import Config
from accelsim.config.params import param_specs
from accelsim.config.units import format_value
from accelsim._yaml_cache import bundled_document
from accelsim.errors import ConfigError

_RESERVED = ("name", "description", "base")


def gpu_config_dir() -> Path:
    return data_dir() / "gpus"


def list_configs() -> list[str]:
    """Names of the bundled GPU configs."""
    return sorted(p.stem for p in gpu_config_dir().glob("*.yaml"))


def load_config(name_or_path, _seen: tuple = ()) -> Config:
    """A bundled config by name (``"QV100"``) or a YAML file by path."""
    if isinstance(name_or_path, Config):
        return name_or_path
    path = _resolve(str(name_or_path))
    if str(path) in _seen:
        raise ConfigError(f"{path}: 'base' chain loops back to itself", key="base", path=str(path))
    bundled = _bundled_key(path)
    if bundled in _BUNDLED:
        return copy.copy(_BUNDLED[bundled])
    config = _load_file(path, _seen)
    if bundled is not None:
        _BUNDLED[bundled] = copy.copy(config)
    return config


#: Bundled configs already loaded, by (path, mtime, size): a Config is immutable,
#: and sweeps, tuners and every file with ``base: QV100`` load the same few again.
_BUNDLED: dict[tuple, Config] = {}


def _bundled_key(path: Path) -> tuple | None:
    """The cache key of a bundled config file, None for a user's file (always re-read)."""
    if path.parent != gpu_config_dir():
        return None
    try:
        st = path.stat()
    except OSError:
        return None
    return str(path), st.st_mtime_ns, st.st_size


def _load_file(path: Path, _seen: tuple) -> Config:
    data, lines = _read_yaml(path)
    base = None
    if data.get("base"):
        base = load_config(_resolve(str(data["base"]), relative_to=path.parent),
                           _seen + (str(path),))
    entries = {k: v for k, v in data.items() if k not in _RESERVED}
    name = str(data.get("name") or path.stem)
    return Config.from_entries(entries, name, str(path), lines, base)


def _resolve(name: str, relative_to: Path | None = None) -> Path:
    candidates = []
    if relative_to is not None:
        candidates.append(relative_to / name)
    candidates.append(Path(name))
    candidates.append(gpu_config_dir() / f"{name}.yaml")
    for candidate in candidates:
        if is_regular_file(candidate):
            return candidate
    for candidate in candidates:  # there, but not a file: say what it is
        why = not_a_file(candidate, "config file")
        if why != "does not exist":
            raise ConfigError(f"{candidate}: {why}", key="config", path=str(candidate))
    known = ", ".join(list_configs())
    shown = name if len(name) <= 80 else name[:77] + "..."
    raise ConfigError(f"no config named or at {shown!r} (bundled: {known})", key="config")


def _read_yaml(path: Path) -> tuple[dict, dict]:
    """(data, line of each top-level key); a bundled file's come from the
    parse cache after its first read (accelsim/_yaml_cache.py)."""
    doc = bundled_document(path, "config", _parse_config_file)
    return doc["data"], doc["lines"]


def _parse_config_file(path: Path) -> dict:
    from accelsim._yaml import read_yaml_document  # PyYAML: only when a file is parsed

    node, data = read_yaml_document(path)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a config file is a mapping of key: value"
                          + (" (this one is empty)" if data is None else ""), path=str(path))
    if not any(k not in ("name", "description") for k in data):
        # Else it would silently run the built-in default GPU.
        raise ConfigError(f"{path}: sets no parameter and names no 'base' config "
                          f"(start from one with 'base: QV100')", path=str(path))
    if any(not isinstance(k, str) for k in data):
        bad = next(k for k in data if not isinstance(k, str))
        raise ConfigError(f"{path}: key {bad!r} is not a name", path=str(path))
    assert node is not None  # data is a mapping, so the document has a node
    return {"data": data, "lines": {k.value: k.start_mark.line + 1 for k, _ in node.value}}


def dump_yaml(config: Config) -> str:
    import yaml

    specs = param_specs()
    values = config.to_dict()
    out = [f"name: {config.name}"]
    for name, spec in specs.items():
        out.append(f"{name}: {_quote(format_value(spec.kind, values[name]))}")
    rest = {k: values[k] for k in ("exec_units", "opcode_units") if values[k]}
    if values["shmem_carveouts"]:
        rest["shmem_carveouts"] = [format_value("bytes", v) for v in values["shmem_carveouts"]]
    if rest:
        out.append(yaml.safe_dump(rest, sort_keys=False).rstrip())
    return "\n".join(out) + os.linesep


def _quote(text: str) -> str:
    return text if text and text[0].isalnum() else repr(text)
