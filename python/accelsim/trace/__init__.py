"""Reading Accel-Sim SASS traces (kernelslist.g + kernel-N.traceg[.gz|.xz]).

``open_trace(path)`` gives a :class:`Trace`: ``.kernels`` / ``.commands``
DataFrames, ``.instruction_mix()``, and ``.kernel(id)`` whose ``.block(j)``
returns a thread block as a NumPy structured array (``RECORD_DTYPE``).
"""
from importlib import import_module

# Loaded on first use (PEP 562): a simulation only needs trace.paths, and
# importing the record layouts would pull NumPy into every run.
_LAZY = {
    **{name: "accelsim.trace._records" for name in
       ("FLAG_ATOMIC", "FLAG_BYPASS_L1", "FLAG_HAS_ADDRS", "FLAG_LOAD", "FLAG_PRED_OFF",
        "FLAG_STORE", "MEM_SPACES", "RECORD_DTYPE", "UNIT_CLASSES")},
    "Kernel": "accelsim.trace.kernel", "KernelInfo": "accelsim.trace.kernel",
    "Trace": "accelsim.trace.workload", "open_trace": "accelsim.trace.workload",
}
__all__ = sorted(_LAZY)


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module 'accelsim.trace' has no attribute {name!r}")
    value = getattr(import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
