"""Building CUDA programs for the simulator: finding an nvcc that compiles
and links host code, and compiling with ``-cudart shared``. The nvcc of the
``nvidia-cuda-nvcc`` wheel ships no libcudart.so to link against, so every
build links against accelsim's own runtime library (same symbols, same
version node: the program is the one the real library would load)."""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from accelsim.errors import AccelsimError

__all__ = ["find_nvcc", "compile_cuda", "compile_cuda_sources"]


def _candidates() -> list[Path]:
    out = []
    for env in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(env):
            out.append(Path(os.environ[env]) / "bin" / "nvcc")
    out.append(Path("/usr/local/cuda/bin/nvcc"))
    on_path = shutil.which("nvcc")
    if on_path:
        out.append(Path(on_path))
    try:
        import nvidia  # type: ignore[import-untyped]

        for root in nvidia.__path__:
            out.extend(sorted(Path(root).glob("cu*/bin/nvcc"), reverse=True))
            out.append(Path(root) / "cuda_nvcc" / "bin" / "nvcc")
    except ImportError:
        pass
    return [p for p in out if p.is_file() and os.access(p, os.X_OK)]


@functools.lru_cache(maxsize=1)
def find_nvcc() -> Path | None:
    """The first nvcc that builds a small program with ``-cudart shared``, or None."""
    with tempfile.TemporaryDirectory(prefix="accelsim-nvcc-") as tmp:
        src = Path(tmp) / "probe.cu"
        src.write_text("__global__ void k(int* p) { *p = 1; }\n"
                       "int main() { int* p; cudaMalloc(&p, 4); k<<<1, 1>>>(p); return 0; }\n")
        for nvcc in _candidates():
            try:
                compile_cuda(src, Path(tmp) / "probe", nvcc=nvcc, timeout=300)
            except AccelsimError:
                continue
            return nvcc
    return None


def _link_dir(folder: Path) -> Path:
    """A folder with libcudart.so naming accelsim's libcudart.so.13, for -lcudart."""
    from accelsim.cuda.launcher import runtime_library_dir

    lib = runtime_library_dir() / "libcudart.so.13"
    if not lib.is_file():
        raise AccelsimError(f"{lib} is missing: cannot link CUDA 13 programs")
    link = folder / "libcudart.so"
    if not link.exists():
        link.symlink_to(lib)
    return folder


def compile_cuda(source, output, *, flags: list[str] | tuple[str, ...] = ("-O2",), nvcc=None,
                 timeout: float = 600) -> Path:
    """Compiles ``source`` (.cu) into the program ``output`` with
    ``nvcc -cudart shared`` (PTX for the default arch is embedded, as nvcc
    does). AccelsimError with nvcc's messages when it fails."""
    return compile_cuda_sources([source], output, flags=flags, nvcc=nvcc, timeout=timeout)


def compile_cuda_sources(sources, output, *, flags: list[str] | tuple[str, ...] = ("-O2",), nvcc=None,
                         timeout: float = 600, cwd=None) -> Path:
    """The same for a program of several sources (.cu, .c, .cpp), compiled
    in ``cwd`` (relative includes resolve there)."""
    nvcc = Path(nvcc) if nvcc else find_nvcc()
    if nvcc is None:
        raise AccelsimError("no working nvcc: install a CUDA toolkit or pip install nvidia-cuda-nvcc")
    with tempfile.TemporaryDirectory(prefix="accelsim-link-") as tmp:
        cmd = [str(nvcc), "-cudart", "shared", *flags, "-L", str(_link_dir(Path(tmp))), "-o",
               str(Path(output).resolve()), *map(str, sources)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise AccelsimError(f"{nvcc}: {e}") from None
    if proc.returncode != 0:
        names = ", ".join(Path(s).name for s in sources)
        raise AccelsimError(f"nvcc failed on {names}:\n{(proc.stderr or proc.stdout).strip()[-2000:]}")
    return Path(output)
