"""accelsim: a cycle-level NVIDIA GPU performance simulator driven from Python."""
from __future__ import annotations

from accelsim.config import Config, import_gpgpusim_config, list_configs, load_config
from accelsim.errors import AccelsimError, ConfigError, DeadlockError, ProfileError, TraceError
from accelsim.sim import SimResult, Simulator
from accelsim.trace import Trace, open_trace

__version__ = "0.1.0"

__all__ = [
    "AccelsimError", "Config", "ConfigError", "DeadlockError", "ProfileError", "TraceError",
    "SimResult", "Simulator", "Trace", "import_gpgpusim_config", "list_configs", "load_config", "open_trace",
]
