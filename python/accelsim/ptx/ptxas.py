"""What ptxas allocates per kernel (SASS-guided occupancy, docs/ptx.md):
registers, static shared memory and the per-thread stack frame / spills.
PTX registers are virtual and PTX may declare shared or local data that
ptxas drops, so without ptxas PTX mode assumes ``regs_per_thread`` and the
PTX's own sizes.

The tools come from, in order: PATH, $CUDA_HOME / $CUDA_PATH, /usr/local/cuda,
then the ``nvidia-cuda-nvcc`` / ``nvidia-cuda-nvdisasm`` wheels
(``pip install 'accelsim[ptx]'``), which need no CUDA toolkit and no GPU."""
from __future__ import annotations

import functools
import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["KernelResources", "find_ptxas", "find_tool", "parse_ptxas_verbose", "register_counts",
           "kernel_resources"]

_ENTRY = re.compile(r"Compiling entry function '([^']+)'")
_PROPS = re.compile(r"Function properties for (\S+)")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"Used (\d+) registers")
_SMEM = re.compile(r"(\d+) bytes smem")


def toolkit_roots() -> list[Path]:
    """The CUDA toolkit folders to look in: $CUDA_HOME, $CUDA_PATH, /usr/local/cuda."""
    return [Path(r) for r in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda") if r]


def tool_candidates(name: str) -> list[str]:
    """Every executable called ``name`` in the places above, first first."""
    found = []
    if w := shutil.which(name):
        found.append(w)
    for toolkit in toolkit_roots():
        if (toolkit / "bin" / name).is_file():
            found.append(str(toolkit / "bin" / name))
    spec = importlib.util.find_spec("nvidia")  # namespace package of NVIDIA's PyPI wheels
    roots = list(spec.submodule_search_locations or []) if spec else []
    for root in roots:  # nvidia/cu13/bin (CUDA 13 wheels), nvidia/cuda_nvcc/bin (CUDA 12)
        for p in sorted(Path(root).glob(f"*/bin/{name}"), reverse=True):
            if os.access(p, os.X_OK):
                found.append(str(p))
    return list(dict.fromkeys(os.path.realpath(p) for p in found))


def find_tool(name: str) -> str | None:
    c = tool_candidates(name)
    return c[0] if c else None


def find_ptxas() -> str | None:
    return find_tool("ptxas")


@dataclass(frozen=True)
class KernelResources:
    """One kernel as ptxas compiled it for ``arch``: registers per thread,
    static shared bytes per block, stack frame and spill bytes per thread."""
    registers: int
    shared_bytes: int = 0
    stack_bytes: int = 0
    spill_stores: int = 0
    spill_loads: int = 0
    arch: str = ""


def parse_ptxas_verbose(text: str, arch: str = "") -> dict[str, KernelResources]:
    """{kernel: KernelResources} from ``ptxas -v`` output (entry functions only;
    a .func's frame is not added to its callers': ptxas reports it separately)."""
    out: dict[str, KernelResources] = {}
    current, frame = None, (0, 0, 0)
    for line in text.splitlines():
        if m := _ENTRY.search(line):
            current, frame = m.group(1), (0, 0, 0)
        elif m := _PROPS.search(line):
            if m.group(1) != current:
                current = None  # a .func's properties
        elif (m := _FRAME.search(line)) and current is not None:
            frame = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
        elif (m := _USED.search(line)) and current is not None:
            s = _SMEM.search(line)
            out[current] = KernelResources(int(m.group(1)), int(s.group(1)) if s else 0, *frame, arch=arch)
            current = None
    return out


def run_ptxas(ptx_text: str, arch: str, extra: tuple[str, ...] = (), keep_cubin: bool = False):
    """(returncode, log, cubin bytes or None) from the first ptxas that accepts
    ``arch``; (None, reason, None) when no ptxas is installed."""
    cands = tool_candidates("ptxas")
    if not cands:
        return None, "no ptxas", None
    log = ""
    with tempfile.TemporaryDirectory(prefix="accelsim-ptxas-") as tmp:
        src, out = Path(tmp) / "m.ptx", Path(tmp) / "m.cubin"
        src.write_text(ptx_text)
        for ptxas in cands:  # an older toolkit may be the only one with this arch (sm_70: CUDA 12)
            r = subprocess.run([ptxas, f"-arch={arch}", "-v", *extra, "-o", str(out), str(src)],
                               capture_output=True, text=True)
            log = r.stdout + r.stderr
            if r.returncode == 0:
                return 0, log, out.read_bytes() if keep_cubin else None
    return 1, log, None


@functools.lru_cache(maxsize=64)
def kernel_resources(ptx_text: str, arch: str = "sm_75") -> dict[str, KernelResources] | None:
    """{kernel: KernelResources} for ``arch``, or None when ptxas is not
    installed or rejects the module."""
    rc, log, _ = run_ptxas(ptx_text, arch)
    return parse_ptxas_verbose(log, arch) if rc == 0 else None


def register_counts(ptx_text: str, arch: str = "sm_75") -> dict[str, int] | None:
    """{kernel: registers per thread} as ptxas allocates them for ``arch``."""
    res = kernel_resources(ptx_text, arch)
    return None if res is None else {k: r.registers for k, r in res.items()}
