"""The bundled ISA tables (configs/isa) as a C++ registry, loaded once per folder."""
from __future__ import annotations

import functools
from pathlib import Path

from accelsim import _core
from accelsim._paths import data_dir


def default_isa_dir() -> Path:
    return data_dir() / "isa"


@functools.lru_cache(maxsize=8)
def _registry(folder: str):
    return _core.IsaRegistry(folder)


def isa_registry(isa_dir: str | Path | None = None):
    """The (immutable, shared) registry of the tables in ``isa_dir``."""
    folder = Path(isa_dir) if isa_dir is not None else default_isa_dir()
    return _registry(str(folder.resolve()))
