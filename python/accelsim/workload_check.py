"""What a run checks about its workload before simulating: the kernelslist
has something to run, every command in it is understood (else a warning
naming file and line), the kernel selection names kernels that exist, and the
traces were made for the config's GPU architecture (else a warning).

Only the command list and the kernel headers are read (no NumPy, no pandas)."""
from __future__ import annotations

import warnings
from dataclasses import dataclass

from accelsim import _core
from accelsim.errors import AccelsimWarning, TraceError
from accelsim.kernel_selection import KernelSelection

# Compute capability -> architecture. Traces carry their binary version (70 =
# sm_70); a trace and a config of different architectures use different
# instruction sets and latencies, so the run is not what a user meant.
_ARCH = {30: "Kepler", 32: "Kepler", 35: "Kepler", 37: "Kepler", 50: "Maxwell",
         52: "Maxwell", 53: "Maxwell", 60: "Pascal", 61: "Pascal", 62: "Pascal",
         70: "Volta", 72: "Volta", 75: "Turing", 80: "Ampere", 86: "Ampere", 87: "Ampere",
         89: "Ada", 90: "Hopper"}


def architecture(version: int) -> str:
    return _ARCH.get(int(version), f"sm_{int(version)}")


@dataclass(frozen=True)
class KernelHeader:
    """What a kernel trace's header says (the fields a workload check reads)."""

    id: int
    binary_version: int
    path: str


def check_commands(path: str) -> list:
    commands = _core.read_command_list(path)
    for kind, line, text, *_ in commands:
        if kind == "other":
            warnings.warn(f"{path}:{line}: command {text[:60]!r} not understood (a kernelslist "
                          "line is a kernel trace name or MemcpyHtoD,<address>,<bytes>); "
                          "it is ignored", AccelsimWarning, stacklevel=6)
    if not any(kind == "kernel" for kind, *_ in commands):
        ignored = sum(1 for kind, *_ in commands if kind == "other")
        what = (f"none of its {ignored} line(s) is understood" if ignored
                else "it is empty" if not commands else "it only copies memory")
        raise TraceError(f"{path}: no kernel to simulate: {what} (expected kernel-N.traceg "
                         "lines and MemcpyHtoD,<address>,<bytes> lines)", path=path,
                         field="kernelslist")
    return commands



def kernel_headers(path: str) -> list[KernelHeader]:
    """Id and binary version of every kernel launch of a workload, in order
    (headers only: no ISA table is loaded, no instruction is read)."""
    headers = []
    for kind, _line, _text, kernel_path, *_ in check_commands(path):
        if kind == "kernel":
            info = _core.read_kernel_header(kernel_path)
            headers.append(KernelHeader(int(info["id"]), int(info["binary_version"]),
                                        kernel_path))
    return headers


def check_architecture(headers: list[KernelHeader], config_name: str, capability: int) -> None:
    """Warn (once per architecture) when traces were made for another GPU
    architecture than the config models (its ``sm_version``; 0: not checked)."""
    if not capability:
        return
    want = architecture(capability)
    seen = set()
    for h in headers:
        got = architecture(h.binary_version)
        if got != want and got not in seen:
            seen.add(got)
            warnings.warn(f"{h.path}: trace made for sm_{h.binary_version} ({got}) but config "
                          f"{config_name!r} models sm_{capability} ({want}); the timing is "
                          "of a different GPU than the one traced", AccelsimWarning, stacklevel=5)


def prepare(path: str, selection: KernelSelection | None, config_name: str,
            capability: int) -> list[int] | None:
    """Checks a workload before a run; returns the kernel ids to simulate
    (None: all)."""
    headers = kernel_headers(path)
    check_architecture(headers, config_name, capability)
    if selection is None:
        return None
    return selection.pick([h.id for h in headers])
