"""What ptxas allocates per kernel (SASS-guided occupancy, docs/ptx.md):
registers, static shared memory and the per-thread stack frame / spills.
PTX registers are virtual and PTX may declare shared or local data that
ptxas drops, so without ptxas PTX mode assumes ``regs_per_thread`` and the
PTX's own sizes.

The tools come from, in order: PATH, $CUDA_HOME / $CUDA_PATH, /usr/local/cuda,
then the ``nvidia-cuda-nvcc`` / ``nvidia-cuda-nvdisasm`` wheels
(``pip install 'accelsim[ptx]'``), which need no CUDA toolkit and no GPU.
Each arch is compiled by the first of them that targets it: CUDA 13 dropped
Volta (sm_70, sm_72), which the CUDA 12 ptxas of ``nvidia-cuda-nvcc-cu12``
still emits; PTX written for a newer target is then compiled for the older
one with its ``.target`` (and ``.version``) lowered, and ptxas refuses it if
it uses anything the older generation lacks."""
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
           "kernel_resources", "retarget", "run_ptxas", "targets"]

_ENTRY = re.compile(r"Compiling entry function '([^']+)'")
_PROPS = re.compile(r"Function properties for (\S+)")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"Used (\d+) registers")
_SMEM = re.compile(r"(\d+) bytes smem")
_TARGET_DIRECTIVE = re.compile(r"^(\s*\.target\s+)sm_(\d+)[a-z]?", re.M)
_VERSION_DIRECTIVE = re.compile(r"^(\s*\.version\s+)(\d+)\.(\d+)", re.M)
_NEWEST_VERSION = re.compile(r"Unsupported \.version (\d+\.\d+); current version is '(\d+)\.(\d+)'")


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


def retarget(ptx_text: str, arch: int, version: tuple[int, int] | None = None) -> str:
    """The PTX with a ``.target`` newer than ``sm_<arch>`` set to it and, given
    ``version``, a newer ``.version`` set to that (both in place: line numbers
    stay). ptxas still rejects any instruction the older target or version
    lacks, so a module that needs them fails to compile instead of changing."""
    def target(m: re.Match) -> str:
        return f"{m.group(1)}sm_{arch}" if int(m.group(2)) > arch else m.group(0)

    def ver(m: re.Match) -> str:
        assert version is not None
        if (int(m.group(2)), int(m.group(3))) <= version:
            return m.group(0)
        return f"{m.group(1)}{version[0]}.{version[1]}"

    text = _TARGET_DIRECTIVE.sub(target, ptx_text, count=1)
    return _VERSION_DIRECTIVE.sub(ver, text, count=1) if version else text


def _ptxas_once(ptxas: str, text: str, arch: str, extra: tuple[str, ...], tmp: Path):
    src, out = tmp / "m.ptx", tmp / "m.cubin"
    src.write_text(text)
    r = subprocess.run([ptxas, f"-arch={arch}", "-v", *extra, "-o", str(out), str(src)],
                       capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr, out


def run_ptxas(ptx_text: str, arch: str, extra: tuple[str, ...] = (), keep_cubin: bool = False,
              lower_target: bool = False):
    """(returncode, log, cubin bytes or None) from the first ptxas that accepts
    ``arch``; (None, reason, None) when no ptxas is installed. With
    ``lower_target`` a PTX ``.target`` newer than ``arch`` is lowered to it and,
    for a ptxas older than the PTX's ``.version``, the version to that ptxas's
    newest (``retarget``)."""
    cands = tool_candidates("ptxas")
    if not cands:
        return None, "no ptxas", None
    log = ""
    number = int(arch[3:].rstrip("af"))
    text = retarget(ptx_text, number) if lower_target else ptx_text
    with tempfile.TemporaryDirectory(prefix="accelsim-ptxas-") as tmp:
        for ptxas in cands:  # an older toolkit may be the only one with this arch (sm_70: CUDA 12)
            rc, log, out = _ptxas_once(ptxas, text, arch, extra, Path(tmp))
            m = _NEWEST_VERSION.search(log)
            if rc != 0 and lower_target and m:
                rc, log, out = _ptxas_once(ptxas, retarget(text, number, (int(m.group(2)), int(m.group(3)))),
                                           arch, extra, Path(tmp))
            if rc == 0:
                return 0, log, out.read_bytes() if keep_cubin else None
    return 1, log, None


@functools.lru_cache(maxsize=8)
def targets(arch: int) -> bool:
    """Whether some installed ptxas compiles for ``sm_<arch>`` (a minimal
    kernel; cached per process)."""
    probe = f".version 6.0\n.target sm_{arch}\n.address_size 64\n.visible .entry k() {{ ret; }}\n"
    return run_ptxas(probe, f"sm_{arch}")[0] == 0


@functools.lru_cache(maxsize=64)
def kernel_resources(ptx_text: str, arch: str = "sm_75",
                     lower_target: bool = False) -> dict[str, KernelResources] | None:
    """{kernel: KernelResources} for ``arch``, or None when ptxas is not
    installed or rejects the module (``lower_target``: see ``run_ptxas``)."""
    rc, log, _ = run_ptxas(ptx_text, arch, lower_target=lower_target)
    return parse_ptxas_verbose(log, arch) if rc == 0 else None


def register_counts(ptx_text: str, arch: str = "sm_75") -> dict[str, int] | None:
    """{kernel: registers per thread} as ptxas allocates them for ``arch``."""
    res = kernel_resources(ptx_text, arch)
    return None if res is None else {k: r.registers for k, r in res.items()}
