"""What the timing model receives from a queued PTX launch: the SASS opcode
names of one warp's records (the first block's), for tests of the lowering."""
from __future__ import annotations

import numpy as np

from accelsim import _core
from accelsim.ptx import Device
from accelsim.ptx.save import _opcode_names
from accelsim.trace._records import RAW_DTYPE


def first_warp_opcodes(dev: Device, version: int = 70, warp: int = 0) -> list[str]:
    """Opcode names of warp `warp`'s records in the first block of the
    device's last queued launch (ISA table of binary `version`)."""
    src = _core.PtxBlocks(dev._tables, dev._pending[-1].command, version, 1)
    _, raw, warp_begin, _ = src.next_block()
    recs = np.frombuffer(raw, dtype=RAW_DTYPE)[warp_begin[warp]:warp_begin[warp + 1]]
    names = _opcode_names(version)
    return [names[int(r["opcode"])] for r in recs]
