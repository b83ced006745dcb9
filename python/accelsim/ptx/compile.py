"""CUDA C++ to PTX: NVRTC from the ``nvidia-cuda-nvrtc`` wheel through
``cuda-python`` when installed (no GPU, no toolkit needed), else ``nvcc -ptx``."""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from accelsim.errors import PtxError
from accelsim.ptx.ptxas import toolkit_roots

__all__ = ["cuda_to_ptx"]

DEFAULT_ARCH = "sm_75"  # the oldest target CUDA 13 still compiles for


def _nvrtc(source: str, name: str, arch: str, options: list[str]) -> str | None:
    try:
        from cuda.bindings import nvrtc  # cuda-python >= 12.6
    except ImportError:
        try:
            from cuda import nvrtc  # older cuda-python
        except ImportError:
            return None
    try:
        err, prog = nvrtc.nvrtcCreateProgram(source.encode(), name.encode(), 0, [], [])
    except Exception:  # cuda-python without the NVRTC library: fall back to nvcc
        return None
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise PtxError(f"NVRTC could not create a program for {name}: {err}")
    opts = [f"--gpu-architecture=compute_{arch.split('_')[1]}".encode(), b"-default-device"]
    opts += [o.encode() for o in options]
    (err,) = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        _, size = nvrtc.nvrtcGetProgramLogSize(prog)
        log = b" " * size
        nvrtc.nvrtcGetProgramLog(prog, log)
        raise PtxError(f"NVRTC failed to compile {name}:\n{log.decode(errors='replace').strip()}", path=name)
    _, size = nvrtc.nvrtcGetPTXSize(prog)
    ptx = b" " * size
    nvrtc.nvrtcGetPTX(prog, ptx)
    return ptx.decode().rstrip("\x00")


def _find_nvcc() -> str | None:
    found = shutil.which("nvcc")
    if found:
        return found
    for root in toolkit_roots():
        if (root / "bin" / "nvcc").is_file():
            return str(root / "bin" / "nvcc")
    return None


_ARCH = re.compile(r"(?:sm|compute)_(\d{2,3})[af]?")


def checked_arch(arch) -> str:
    """``arch`` ("sm_75", "sm_90a", "compute_80") as the compilers want it."""
    if not isinstance(arch, str) or not _ARCH.fullmatch(arch):
        raise PtxError(f"arch must name a GPU target such as 'sm_75' or 'sm_90a', not {arch!r}")
    return arch


def cuda_to_ptx(source: str, name: str = "kernel.cu", arch: str | None = None,
                options: list[str] | None = None) -> str:
    """PTX text for CUDA C++ ``source``, with line info (``.loc``) so errors
    can name the source line. Raises PtxError with the compiler's log on a
    compile error, or saying what to install when no compiler exists."""
    arch = checked_arch(arch or DEFAULT_ARCH)
    if options is not None and (isinstance(options, str) or not all(isinstance(o, str) for o in options)):
        raise PtxError(f"options must be a list of strings, not {options!r}")
    options = ["-lineinfo", *(options or [])]
    ptx = _nvrtc(source, name, arch, options)
    if ptx is not None:
        return ptx
    nvcc = _find_nvcc()
    if nvcc is None:
        raise PtxError("no CUDA compiler: install NVRTC (pip install 'accelsim[ptx]', which brings "
                       "cuda-python and nvidia-cuda-nvrtc) or put nvcc on PATH")
    with tempfile.TemporaryDirectory(prefix="accelsim-ptx-") as tmp:
        src = Path(tmp) / Path(name).name
        if src.suffix != ".cu":
            src = src.with_suffix(".cu")
        src.write_text(source)
        out = src.with_suffix(".ptx")
        cmd = [nvcc, "-ptx", f"-arch={arch}", "-O3", *options, "-o", str(out), str(src)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise PtxError(f"nvcc failed to compile {name}:\n{(r.stderr or r.stdout).strip()}", path=name)
        return out.read_text()
