"""PTX front end: run CUDA kernels given as PTX (or CUDA C++) on the timing
model with NumPy data, no GPU needed.

    dev = accelsim.Device("QV100")
    mod = accelsim.ptx.Module(ptx_text_or_path)        # or Module.from_cuda(src)
    k = mod.get_function("saxpy")
    x = dev.to_device(np.arange(n, dtype=np.float32)); y = dev.zeros(n, np.float32)
    k[(n + 255) // 256, 256](np.float32(2.0), x, y, np.int32(n))
    out = y.copy_to_host()
    result = dev.synchronize()                          # a SimResult, as Simulator.run

See docs/ptx.md for what is supported.
"""
from __future__ import annotations

from pathlib import Path

from accelsim.errors import PtxError
from accelsim.ptx.device import Device, DeviceArray, Stream
from accelsim.ptx.module import Kernel, Module

# The example kernels shipped with the package (CUDA sources and their PTX).
EXAMPLES = Path(__file__).parent / "examples"

__all__ = ["Device", "DeviceArray", "EXAMPLES", "Kernel", "Module", "PtxError", "Stream"]
