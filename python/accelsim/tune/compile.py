"""CUDA sources to PTX: nvcc when it is on the machine, else NVRTC (the
``nvidia-cuda-nvrtc`` wheel through cuda-python). Nothing compiled is kept
in the package; callers choose where PTX goes."""
from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from accelsim.errors import AccelsimError
from accelsim.microbench.suite import CUDA_DIR, Microbenchmark


class CompileError(AccelsimError):
    """A microbenchmark did not compile; the message holds the compiler's output."""


def find_nvcc() -> str | None:
    for candidate in (os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def have_nvrtc() -> bool:
    try:
        nvrtc = _nvrtc_module()
    except ImportError:
        return False
    try:
        nvrtc.nvrtcVersion()
    except Exception:  # noqa: BLE001 - the wheel without its shared library
        return False
    return True


def defines_for(bench: Microbenchmark, facts: dict, overrides: dict | None = None) -> dict:
    sizes = bench.sizes(facts)
    sizes.update(overrides or {})
    return sizes


def to_ptx(bench: Microbenchmark, facts: dict, arch: str = "compute_75", *, overrides: dict | None = None,
           compiler: str = "auto") -> str:
    """PTX text of ``bench``'s source with its defines for ``facts``."""
    defines = defines_for(bench, facts, overrides)
    use = compiler
    if use == "auto":
        use = "nvcc" if find_nvcc() else "nvrtc" if have_nvrtc() else ""
    if use == "nvcc":
        return _nvcc(bench.source, defines, arch)
    if use == "nvrtc":
        return _nvrtc(bench.source, defines, arch)
    raise CompileError("no CUDA compiler: install the CUDA toolkit (nvcc) or "
                       "`pip install accelsim[cuda]` (NVRTC through cuda-python)")


def _flags(defines: dict) -> list[str]:
    return [f"-D{k}={v}" for k, v in sorted(defines.items())]


def _nvrtc_module():
    """cuda-python's NVRTC bindings (imported by name: an optional extra)."""
    return importlib.import_module("cuda.bindings.nvrtc")


def _nvcc(source: str, defines: dict, arch: str) -> str:
    nvcc = find_nvcc()
    if nvcc is None:
        raise CompileError("nvcc is not installed")
    with tempfile.TemporaryDirectory(prefix="accelsim-ptx-") as tmp:
        out = Path(tmp) / "out.ptx"
        cmd = [nvcc, f"-arch={arch}", "-ptx", "-w", *_flags(defines), "-o", str(out),
               str(CUDA_DIR / source)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise CompileError(f"nvcc failed on {source} ({' '.join(_flags(defines))}):\n{proc.stderr}")
        return out.read_text()


def _nvrtc(source: str, defines: dict, arch: str) -> str:
    nvrtc = _nvrtc_module()

    text = (CUDA_DIR / source).read_bytes()
    header = (CUDA_DIR / "common.cuh").read_bytes()
    err, prog = nvrtc.nvrtcCreateProgram(text, source.encode(), 1, [header], [b"common.cuh"])
    _check(err, source)
    opts = [f"--gpu-architecture={arch}".encode(), *(f.encode() for f in _flags(defines))]
    err, = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        _, size = nvrtc.nvrtcGetProgramLogSize(prog)
        log = b" " * size
        nvrtc.nvrtcGetProgramLog(prog, log)
        raise CompileError(f"NVRTC failed on {source}:\n{log.decode(errors='replace')}")
    _, size = nvrtc.nvrtcGetPTXSize(prog)
    ptx = b" " * size
    nvrtc.nvrtcGetPTX(prog, ptx)
    return ptx.decode().rstrip("\x00")


def _check(err, what: str) -> None:
    nvrtc = _nvrtc_module()

    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise CompileError(f"NVRTC error {err} on {what}")
