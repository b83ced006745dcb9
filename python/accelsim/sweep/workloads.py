"""The workloads of a sweep: names -> resolved trace paths."""
from __future__ import annotations

import os
from pathlib import Path

from accelsim.errors import ConfigError
from accelsim.trace.paths import resolve_trace_path


def named_workloads(workloads) -> dict[str, str]:
    """A trace path (kernelslist.g or its folder), a list of them, or a dict
    name -> path; every path is resolved (a missing one fails here, with its
    name, before any point runs). Unnamed workloads are named after their
    folder, made unique with a suffix."""
    if isinstance(workloads, (str, os.PathLike)):
        pairs = [(None, workloads)]
    elif isinstance(workloads, dict):
        pairs = list(workloads.items())
        for name in workloads:
            if not isinstance(name, str) or not name:
                raise ConfigError(f"workload names must be non-empty strings, got {name!r}")
    elif isinstance(workloads, (list, tuple)):
        pairs = [(None, w) for w in workloads]
    else:
        pairs = [(None, getattr(workloads, "path", workloads))]
    if not pairs:
        raise ConfigError("no workloads given")
    out: dict[str, str] = {}
    for name, path in pairs:
        path = getattr(path, "path", path)  # e.g. what accelsim.open_trace returns
        if not isinstance(path, (str, os.PathLike)):
            raise ConfigError(f"a workload is a trace path, got {path!r}")
        resolved = resolve_trace_path(path).resolve()
        if name is None:
            name = _unique(resolved.parent.name or "workload", out)
        out[name] = str(resolved)
    return out


def _unique(name: str, taken: dict) -> str:
    if name not in taken:
        return name
    n = 2
    while f"{name}_{n}" in taken:
        n += 1
    return f"{name}_{n}"


def workload_fingerprint(path: str) -> dict:
    """What identifies a workload cheaply: its resolved path and the size of
    its listing (hashing whole traces could take minutes on real ones)."""
    st = Path(path).stat()
    return {"path": path, "size": st.st_size}
