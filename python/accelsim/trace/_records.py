"""NumPy views of the C++ instruction records (``cpp/isa/inst_record.h``)."""
from __future__ import annotations

import numpy as np

from accelsim.trace._names import (FLAG_ATOMIC, FLAG_BYPASS_L1, FLAG_HAS_ADDRS,  # noqa: F401
                                   FLAG_LOAD, FLAG_PRED_OFF, FLAG_READ_ONLY, FLAG_STORE,
                                   MEM_SPACES, UNIT_CLASSES)

# Byte layout of accelsim::trace::InstRecord (40 bytes, little endian).
RAW_DTYPE = np.dtype({
    "names": ["pc", "mask", "line", "addr_offset", "imm", "opcode", "dst", "src", "unit",
              "mem_space", "access_bytes", "flags", "nsrc", "warp", "lat_class"],
    "formats": ["<u4", "<u4", "<u4", "<u4", "<i4", "<u2", "<u2", ("<u2", (4,)), "u1", "u1", "u1",
                "u1", "u1", "u1", "u1"],
    "offsets": [0, 4, 8, 12, 16, 20, 22, 24, 32, 33, 34, 35, 36, 37, 38],
    "itemsize": 40,
})

# What ``Kernel.block()`` returns: one row per warp instruction, lane
# addresses inline (0 for inactive lanes and non-memory instructions).
RECORD_DTYPE = np.dtype([
    ("warp", "u1"), ("pc", "<u4"), ("mask", "<u4"), ("opcode", "<u2"), ("unit", "u1"),
    ("mem_space", "u1"), ("access_bytes", "u1"), ("flags", "u1"), ("dst", "<u2"),
    ("nsrc", "u1"), ("src", "<u2", (4,)), ("imm", "<i4"), ("line", "<u4"), ("addrs", "<u8", (32,)),
])


def records_from_raw(raw_bytes: np.ndarray, addrs: np.ndarray) -> np.ndarray:
    """Turns the C++ block buffers into a RECORD_DTYPE array."""
    raw = np.ascontiguousarray(raw_bytes).view(RAW_DTYPE).reshape(-1)
    out = np.zeros(len(raw), dtype=RECORD_DTYPE)
    for name in ("warp", "pc", "mask", "opcode", "unit", "mem_space", "access_bytes", "flags",
                 "dst", "nsrc", "src", "imm", "line"):
        out[name] = raw[name]
    has = (raw["flags"] & FLAG_HAS_ADDRS) != 0
    if has.any():
        offsets = raw["addr_offset"][has].astype(np.int64)
        out["addrs"][has] = addrs[offsets[:, None] + np.arange(32)]
    return out
