"""The bundled ISA tables (configs/isa) as a C++ registry, loaded once per
(folder, unit overrides)."""
from __future__ import annotations

import functools
from pathlib import Path

from accelsim import _core
from accelsim._paths import data_dir


def default_isa_dir() -> Path:
    return data_dir() / "isa"


@functools.lru_cache(maxsize=8)
def _registry(folder: str, overrides: tuple):
    if overrides:
        return _core.IsaRegistry(folder, list(overrides))
    return _core.IsaRegistry(folder)


def isa_registry(isa_dir: str | Path | None = None, opcode_units: dict | None = None):
    """The (immutable, shared) registry of the tables in ``isa_dir``, with
    ``opcode_units`` ({opcode: unit class}) applied to every table."""
    folder = str(Path(isa_dir).resolve()) if isa_dir is not None else _default_folder()
    overrides = tuple(sorted((opcode_units or {}).items()))
    return _registry(folder, overrides)


@functools.lru_cache(maxsize=1)
def _default_folder() -> str:
    """The bundled tables' folder, resolved once (every open_trace asks for it)."""
    return str(default_isa_dir().resolve())
