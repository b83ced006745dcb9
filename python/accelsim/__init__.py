"""accelsim: a cycle-level NVIDIA GPU performance simulator driven from Python."""
from __future__ import annotations

from accelsim.errors import AccelsimError, ConfigError, DeadlockError, ProfileError, TraceError

__version__ = "0.1.0"

__all__ = [
    "AccelsimError", "ConfigError", "DeadlockError", "ProfileError", "TraceError",
]
