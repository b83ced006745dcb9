"""Where a workload's trace is, from what a user passes (no NumPy needed:
a simulation run resolves its path without loading the trace tools)."""
from __future__ import annotations

from pathlib import Path

from accelsim._files import is_regular_file, kind_of, missing_reason, not_a_file
from accelsim.errors import TraceError


def resolve_trace_path(path) -> Path:
    """A kernelslist.g, a folder holding one, or a single kernel trace."""
    p = Path(path)
    kind = kind_of(p)
    if kind is None:
        raise TraceError(f"{p}: {missing_reason(p)}", path=str(p), field="file")
    if kind == "a folder":
        if ".traceg" in p.name:  # named like a kernel trace, but a folder
            raise TraceError(f"{p}: is a directory, not a kernel trace file", path=str(p),
                             field="file")
        listed = p / "kernelslist.g"
        if is_regular_file(listed):
            return listed
        kernels = sorted(p.glob("kernel-*.traceg*"))
        if len(kernels) == 1:
            return kernels[0]
        raise TraceError(f"{p}: no kernelslist.g in this folder", path=str(p), field="kernelslist.g")
    why = not_a_file(p, "trace file")
    if why is not None:
        raise TraceError(f"{p}: {why}", path=str(p), field="file")
    return p
