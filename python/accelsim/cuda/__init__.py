"""Unmodified CUDA programs on the simulated GPU (docs/cuda_apps.md):
``accelsim.run_cuda(["./app", "arg"], config="QV100")`` or
``accelsim cuda -- ./app arg``. The program must be built with
``nvcc -cudart shared`` and embed PTX (nvcc's default ``-arch=sm_XX`` does)."""
from __future__ import annotations

from accelsim.cuda.launcher import RECORD_MODES, run_cuda, runtime_library_dir
from accelsim.cuda.result import CudaResult, read_result

__all__ = ["CudaResult", "RECORD_MODES", "read_result", "run_cuda", "runtime_library_dir"]
