"""Writing Accel-Sim SASS traces from Python (tests, microbenchmarks, examples).

Build ``Kernel`` objects (header fields + per-block, per-warp ``Inst`` lists)
and write them with ``write_workload`` / ``write_kernel``; ``examples`` has
ready-made workloads such as ``write_vecadd``.
"""
from accelsim.tracegen.model import FULL_MASK, Inst, Kernel, Memcpy, ThreadBlock
from accelsim.tracegen.writer import (access_bytes, choose_mode, inst_line, kernel_text,
                                      write_kernel, write_workload)
from accelsim.tracegen import examples

__all__ = ["FULL_MASK", "Inst", "Kernel", "Memcpy", "ThreadBlock", "access_bytes", "choose_mode",
           "examples", "inst_line", "kernel_text", "write_kernel", "write_workload"]
