"""The data tables the PTX front end reads (configs/ptx, configs/isa), loaded
once per set of config ``opcode_units`` overrides."""
from __future__ import annotations

import functools

from accelsim import _core
from accelsim._paths import data_dir


@functools.lru_cache(maxsize=8)
def tables(unit_overrides: tuple = ()):
    """``unit_overrides``: sorted (SASS opcode, unit class) pairs, a config's
    ``opcode_units``, applied to the ISA tables records are built from."""
    d = data_dir()
    return _core.PtxTables(str(d / "ptx" / "opcodes.txt"), str(d / "ptx" / "lowering.txt"), str(d / "isa"),
                           list(unit_overrides))
