"""accelsim: a cycle-level NVIDIA GPU performance simulator driven from Python."""
from __future__ import annotations

from accelsim.config import Config, import_gpgpusim_config, list_configs, load_config
from accelsim.errors import AccelsimError, ConfigError, DeadlockError, ProfileError, TraceError
# Binds the name ``correlate`` to the function (the subpackage stays importable as
# ``from accelsim.correlate import ...``).
from accelsim.correlate import correlate, load_sim_tidy, read_profile
from accelsim.sim import SimResult, Simulator
from accelsim import stats
from accelsim.stats import load_result
from accelsim.trace import Trace, open_trace

__version__ = "0.1.0"

__all__ = [
    "AccelsimError", "Config", "ConfigError", "DeadlockError", "ProfileError", "SimResult",
    "Simulator", "Trace", "TraceError", "correlate", "import_gpgpusim_config", "list_configs",
    "load_config", "load_result", "load_sim_tidy", "open_trace", "read_profile",
]
