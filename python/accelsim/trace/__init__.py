"""Reading Accel-Sim SASS traces (kernelslist.g + kernel-N.traceg[.gz|.xz]).

``open_trace(path)`` gives a :class:`Trace`: ``.kernels`` / ``.commands``
DataFrames, ``.instruction_mix()``, and ``.kernel(id)`` whose ``.block(j)``
returns a thread block as a NumPy structured array (``RECORD_DTYPE``).
"""
from accelsim.trace._records import (FLAG_ATOMIC, FLAG_BYPASS_L1, FLAG_HAS_ADDRS, FLAG_LOAD,
                                     FLAG_PRED_OFF, FLAG_STORE, MEM_SPACES, RECORD_DTYPE,
                                     UNIT_CLASSES)
from accelsim.trace.kernel import Kernel, KernelInfo
from accelsim.trace.workload import Trace, open_trace

__all__ = ["FLAG_ATOMIC", "FLAG_BYPASS_L1", "FLAG_HAS_ADDRS", "FLAG_LOAD", "FLAG_PRED_OFF",
           "FLAG_STORE", "Kernel", "KernelInfo", "MEM_SPACES", "RECORD_DTYPE", "Trace",
           "UNIT_CLASSES", "open_trace"]
