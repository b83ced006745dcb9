"""Sweep spec files (``accelsim sweep SPEC.yaml``): the arguments of
``accelsim.sweep`` as YAML. Relative paths are relative to the spec's folder.

    workloads: {vecadd: traces/vecadd, bfs: traces/bfs}   # or a path, or a list
    config: QV100                                         # name or YAML path
    grid:                                                 # or points: [{...}, ...]
      l2_size: [3 MiB, 6 MiB]
      scheduler: [gto, lrr]
    kernels: 1-3          # optional
    max_cycles: 200000    # optional
    out: results/l2       # optional (--out wins)
"""
from __future__ import annotations

import difflib
from pathlib import Path


from accelsim.errors import ConfigError

KEYS = ("workloads", "config", "grid", "points", "kernels", "max_cycles", "out")
REQUIRED = ("workloads", "config")


def load_spec(path) -> dict:
    """The spec as ``accelsim.sweep`` keyword arguments (``out`` included if given)."""
    path = Path(path)
    data, lines = _read(path)
    for key in data:
        if key not in KEYS:
            near = difflib.get_close_matches(str(key), KEYS, n=1)
            hint = f"; did you mean '{near[0]}'?" if near else f"; keys are {', '.join(KEYS)}"
            raise _error(path, lines, key, f"unknown key '{key}'{hint}")
    for key in REQUIRED:
        if key not in data:
            raise ConfigError(f"{path}: missing '{key}'", key=key, path=str(path))
    spec = dict(data)
    here = path.parent
    spec["workloads"] = _paths(path, lines, spec["workloads"], here)
    if isinstance(spec["config"], str) and (here / spec["config"]).is_file():
        spec["config"] = str(here / spec["config"])
    elif not isinstance(spec["config"], str):
        raise _error(path, lines, "config", "expected a config name or a YAML path")
    if spec.get("out") is not None:
        spec["out"] = str(here / str(spec["out"]))
    return spec


def _paths(path: Path, lines: dict, value, here: Path):
    def one(v):
        if not isinstance(v, str) or not v:
            raise _error(path, lines, "workloads", f"expected a trace path, got {v!r}")
        return str(here / v)

    if isinstance(value, str):
        return one(value)
    if isinstance(value, list) and value:
        return [one(v) for v in value]
    if isinstance(value, dict) and value:
        return {str(k): one(v) for k, v in value.items()}
    raise _error(path, lines, "workloads", "expected a path, a list of paths or a mapping "
                 f"name: path, got {value!r}")


def _error(path: Path, lines: dict, key, message: str) -> ConfigError:
    line = lines.get(key)
    where = f"{path}:{line}" if line else str(path)
    return ConfigError(f"{where}: {message}", key=str(key), path=str(path), line=line)


def _read(path: Path) -> tuple[dict, dict]:
    from accelsim._yaml import read_yaml_document

    node, data = read_yaml_document(path, "sweep spec")
    if node is None or not isinstance(data, dict):
        raise ConfigError(f"{path}: a sweep spec is a mapping (workloads, config, grid, ...)",
                          path=str(path))
    lines = {k.value: k.start_mark.line + 1 for k, _ in node.value}
    return data, lines
