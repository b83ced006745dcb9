"""One kernel trace: header, thread blocks as NumPy arrays, counts."""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator

from accelsim import _core
from accelsim.trace._isa import isa_registry
from accelsim.trace._names import MEM_SPACES

if TYPE_CHECKING:  # NumPy loads with the first block read, not with a header
    import numpy as np


@dataclass(frozen=True)
class KernelInfo:
    """The header of a kernel-N.traceg."""
    path: str
    name: str
    id: int
    grid: tuple
    block: tuple
    shmem: int
    nregs: int
    binary_version: int
    stream: int
    shmem_base: int
    local_base: int
    tracer_version: int
    lineinfo: bool
    isa: str
    isa_path: str

    @property
    def num_blocks(self) -> int:
        return math.prod(self.grid)

    @property
    def warps_per_block(self) -> int:
        return (math.prod(self.block) + 31) // 32


class Kernel:
    """A streaming reader of one kernel trace.

    ``block(j)`` decodes thread block ``j`` (reading forward, or from the
    start when going back); ``blocks()`` walks all of them with bounded memory.
    """

    def __init__(self, path, isa_dir=None, opcode_units: dict | None = None, *, _registry=None,
                 _counts_cache: dict | None = None):
        self._registry = _registry if _registry is not None else isa_registry(isa_dir, opcode_units)
        self._reader = _core.KernelTrace(str(path), self._registry)
        self.info = KernelInfo(**self._reader.info)
        rows = self._reader.opcodes
        #: opcode names, indexed by a record's ``opcode`` field
        self.opcodes = [r[0] for r in rows]
        self._opcode_units = [r[1] for r in rows]
        #: unit class names, indexed by a record's ``unit`` field
        self.units = list(self._reader.unit_names)
        #: memory space names, indexed by a record's ``mem_space`` field
        self.mem_spaces = list(MEM_SPACES)
        self._next = 0
        self._lock = threading.Lock()
        self._counts_cache = _counts_cache if _counts_cache is not None else {}

    def __repr__(self) -> str:
        i = self.info
        return f"<Kernel {i.id} {i.name} grid={i.grid} block={i.block} {i.path}>"

    @property
    def num_blocks(self) -> int:
        return self.info.num_blocks

    def block(self, index: int) -> np.ndarray:
        """Records of thread block ``index`` (file order), grouped by warp."""
        n = self.num_blocks
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"thread block {index} out of range (kernel has {n})")
        with self._lock:
            if index < self._next:
                self._reader.rewind()
                self._next = 0
            self._next += self._reader.skip(index - self._next)
            item = self._reader.next_block()
            if item is None:  # not reached: the reader checks the block count
                raise IndexError(f"thread block {index} not found")
            self._next += 1
            return _records().records_from_raw(item[2], item[3])

    def blocks(self) -> Iterator[tuple[tuple, np.ndarray]]:
        """Yields ``(coord, records)`` for every thread block, in file order
        (an independent reader: does not disturb ``block()``)."""
        reader = _core.KernelTrace(self.info.path, self._registry)
        while (item := reader.next_block()) is not None:
            yield item[1], _records().records_from_raw(item[2], item[3])

    def counts(self) -> dict:
        """Thread blocks, warp / thread instruction totals, the per
        (opcode, memory space) matrices and the deviations from the format
        read anyway (``trace_warnings``); computed once (C++, GIL released)."""
        key = self.info.path
        if key not in self._counts_cache:
            reader = _core.KernelTrace(self.info.path, self._registry)
            self._counts_cache[key] = reader.counts()
        return self._counts_cache[key]

    def sizes(self) -> dict:
        """``counts()`` without the matrices (no NumPy): thread_blocks,
        warp_instructions, thread_instructions, trace_warnings."""
        if self.info.path in self._counts_cache:
            return self._counts_cache[self.info.path]
        key = (self.info.path, "sizes")
        if key not in self._counts_cache:
            reader = _core.KernelTrace(self.info.path, self._registry)
            self._counts_cache[key] = reader.counts(matrices=False)
        return self._counts_cache[key]

    def instruction_mix(self):
        """DataFrame: warp / thread instruction counts by opcode, unit class
        and memory space (generic accesses split by the space they hit)."""
        import numpy as np
        import pandas as pd

        c = self.counts()
        warp, thread = c["warp_by_opcode_space"], c["thread_by_opcode_space"]
        rows = [{"opcode": self.opcodes[op], "unit": self.units[self._opcode_units[op]],
                 "mem_space": MEM_SPACES[space], "warp_instructions": int(warp[op, space]),
                 "thread_instructions": int(thread[op, space])}
                for op, space in zip(*np.nonzero(warp))]
        df = pd.DataFrame(rows, columns=MIX_COLUMNS)
        return df.sort_values(["warp_instructions", "opcode"], ascending=[False, True],
                              kind="stable").reset_index(drop=True)


def _records():
    from accelsim.trace import _records as records  # NumPy: loaded with the first block read

    return records


MIX_COLUMNS = ["opcode", "unit", "mem_space", "warp_instructions", "thread_instructions"]
