"""Shared by the CUDA-program tests: the nvcc to build with (skip without
one, or without the runtime library) and a build cache keyed by the sources,
so a second run of the suite does not compile again."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PROGRAMS = Path(__file__).resolve().parent / "cuda_programs"
CACHE = REPO / "build" / "cuda-test-programs"


def have_cuda_compiler() -> bool:
    """Module.from_cuda can compile here: NVRTC (cuda-python) or nvcc."""
    try:
        import cuda.bindings.nvrtc  # noqa: F401
        return True
    except ImportError:
        from accelsim.ptx.compile import _find_nvcc

        return _find_nvcc() is not None


def toolkit_include() -> str | None:
    """The CUDA toolkit's include folder (mma.h, cuda_bf16.h: NVRTC's wheel does not ship them)."""
    from accelsim.ptx.ptxas import toolkit_roots

    return next((str(r / "include") for r in toolkit_roots() if (r / "include" / "mma.h").is_file()), None)


def tensor_module(source: str, name: str, arch: str):
    """Module.from_cuda of a source that includes mma.h; skips the test without a compiler or the headers."""
    from accelsim.ptx import Module

    include = toolkit_include()
    if not have_cuda_compiler() or include is None:
        pytest.skip("needs NVRTC or nvcc and the CUDA toolkit's headers (mma.h)")
    return Module.from_cuda(source, name=name, arch=arch, options=[f"-I{include}"])


def need_toolchain():
    """The nvcc to use; skips the test when there is none or the runtime library is not built."""
    from accelsim.cuda import runtime_library_dir
    from accelsim.cuda.nvcc import find_nvcc
    from accelsim.errors import AccelsimError

    try:
        runtime_library_dir()
    except AccelsimError as e:
        pytest.skip(str(e))
    nvcc = find_nvcc()
    if nvcc is None:
        pytest.skip("no nvcc that compiles and links host code (CUDA toolkit, or pip install nvidia-cuda-nvcc)")
    return nvcc


def build(source: Path, flags: tuple[str, ...] = ("-O2",), name: str | None = None) -> Path:
    """The program built from ``source`` (cached by content, flags and nvcc)."""
    from accelsim.cuda.nvcc import compile_cuda

    nvcc = need_toolchain()
    h = hashlib.sha256()
    for part in (source.read_bytes(), (PROGRAMS / "common.h").read_bytes(), " ".join(flags).encode(),
                 str(nvcc).encode()):
        h.update(part)
    out = CACHE / h.hexdigest()[:16] / (name or source.stem)
    if not out.is_file():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".tmp")
        compile_cuda(source, tmp, flags=[*flags, "-I", str(PROGRAMS)], nvcc=nvcc)
        tmp.replace(out)
    return out


def program(name: str, flags: tuple[str, ...] = ("-O2",)) -> Path:
    return build(PROGRAMS / f"{name}.cu", flags)
