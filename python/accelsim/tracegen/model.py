"""What a generated trace is made of: instructions, thread blocks, kernels,
memcpys. Plain data; ``writer`` turns them into Accel-Sim trace files."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

FULL_MASK = 0xFFFFFFFF


@dataclass
class Inst:
    """One warp instruction.

    ``addrs`` (memory instructions only): 32 per-lane addresses (entries of
    inactive lanes are ignored), or one address per active lane in lane order.
    ``pc`` defaults to 16 x the instruction's position in its warp.
    """
    opcode: str
    mask: int = FULL_MASK
    dst: int | None = None
    srcs: Sequence[int] = ()
    addrs: Sequence[int] | None = None
    pc: int | None = None
    line: int = 0
    imm: int = 0
    mem_width: int | None = None  # default: derived from the opcode, as the tracer does

    def lane_addresses(self) -> list[int]:
        """Addresses of the active lanes, in lane order."""
        if self.addrs is None:
            return []
        active = [i for i in range(32) if self.mask >> i & 1]
        if len(self.addrs) == 32:
            return [int(self.addrs[i]) for i in active]
        if len(self.addrs) != len(active):
            raise ValueError(f"{self.opcode}: {len(self.addrs)} addresses for "
                             f"{len(active)} active lanes (give 32 or one per active lane)")
        return [int(a) for a in self.addrs]


@dataclass
class ThreadBlock:
    """``warps[w]`` is warp w's instruction list (in execution order)."""
    coord: tuple[int, int, int] = (0, 0, 0)
    warps: list[list[Inst]] = field(default_factory=list)


@dataclass
class Kernel:
    """Header fields plus thread blocks (in launch order)."""
    name: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    blocks: list[ThreadBlock] = field(default_factory=list)
    id: int = 1
    shmem: int = 0
    nregs: int = 16
    binary_version: int = 70
    stream: int = 0
    shmem_base: int = 0x00007F4A60000000
    local_base: int = 0x00007F4A62000000
    nvbit_version: str = "1.5.5"


@dataclass
class Memcpy:
    """A ``MemcpyHtoD,<address>,<bytes>`` line of kernelslist.g."""
    address: int
    bytes: int
