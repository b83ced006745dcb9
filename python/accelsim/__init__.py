"""accelsim: a cycle-level NVIDIA GPU performance simulator driven from Python.

The heavier parts (configs and their YAML reader, pandas-based tables, the
simulator, the correlator) load on first use, so ``import accelsim`` stays
light (``tests/test_startup.py`` guards what it loads); every public name is listed in
``__all__`` and resolves through ``__getattr__``.
"""
from __future__ import annotations

import importlib

from accelsim import _warnings
from accelsim.errors import (AccelsimError, ConfigError, DeadlockError, DeviceMemoryError, DeviceTypeError,
                             Interrupted, ProfileError, PtxError, RunStopped, TraceError)
from accelsim.run_modes import IntraKernelSampling, KernelSampling, set_runner_loader

__version__ = "0.1.0"

# Sampled and split runs are carried out by accelsim.sampling, imported on the first one.
set_runner_loader(lambda: importlib.import_module("accelsim.sampling"))

_warnings.install()  # AccelsimWarnings print as one line ("accelsim: warning: ...")

_LAZY = {
    "AccelsimWarning": "accelsim.errors",
    "Config": "accelsim.config",
    "import_gpgpusim_config": "accelsim.config",
    "list_configs": "accelsim.config",
    "load_config": "accelsim.config",
    "correlate": "accelsim.correlation",
    "load_sim_tidy": "accelsim.correlation",
    "Progress": "accelsim.progress",
    "read_profile": "accelsim.correlation",
    "SimResult": "accelsim.sim",
    "load_result": "accelsim.stats",
    "Simulator": "accelsim.sim",
    "Device": "accelsim.ptx",
    "run_cuda": "accelsim.cuda",
    "Trace": "accelsim.trace",
    "open_trace": "accelsim.trace",
}

# Subpackages bound on first use; ``accelsim.sweep`` is a callable package
# (``accelsim.sweep(...)`` runs a sweep, ``accelsim.sweep.load_sweep`` reads one).
_LAZY_MODULES = ("sweep", "tune")

__all__ = [
    "AccelsimError", "ConfigError", "DeadlockError", "DeviceMemoryError", "DeviceTypeError",
    "Interrupted", "IntraKernelSampling", "KernelSampling", "ProfileError", "PtxError", "RunStopped", "TraceError",
    *_LAZY, *_LAZY_MODULES,
]


def __getattr__(name: str):
    if name == "ptx":  # the PTX front end's package (loads the extension)
        return importlib.import_module("accelsim.ptx")
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # resolve once
        return value
    if name in _LAZY_MODULES:
        return importlib.import_module(f"accelsim.{name}")  # binds itself here
    raise AttributeError(f"module 'accelsim' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
