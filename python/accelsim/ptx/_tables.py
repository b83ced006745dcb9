"""The data tables the PTX front end reads (configs/ptx, configs/isa), loaded once."""
from __future__ import annotations

import functools

from accelsim import _core
from accelsim._paths import data_dir


@functools.lru_cache(maxsize=1)
def tables():
    d = data_dir()
    return _core.PtxTables(str(d / "ptx" / "opcodes.txt"), str(d / "ptx" / "lowering.txt"), str(d / "isa"))
