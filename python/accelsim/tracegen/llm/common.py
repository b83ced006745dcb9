"""Shared pieces of the generated LLM kernels: the kernel record
(``GenKernel``) and small instruction idioms (16-byte global accesses, shared
stores and loads, warp reductions, index prologues)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

from accelsim.tracegen.model import FULL_MASK, Kernel
from accelsim.tracegen.templates import Op

SHMEM_BASE = 0x00007F4A60000000  # the header's shared window
HALF = 2  # bytes per fp16 element


@dataclass
class GenKernel:
    name: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    nregs: int
    shmem: int
    warp_instructions: int
    blocks: Callable[[], Iterator[str]] = field(repr=False)

    def header(self, kernel_id: int) -> Kernel:
        return Kernel(name=self.name, grid=self.grid, block=self.block, id=kernel_id,
                      shmem=self.shmem, nregs=self.nregs)


def lanes(n: int) -> int:
    """Mask of lanes 0..n-1."""
    return FULL_MASK if n >= 32 else (1 << max(0, n)) - 1


def ldg128(dst: int, addr_reg: int, mask: int = FULL_MASK) -> Op:
    return Op("LDG.E.128.SYS", dst, (addr_reg,), mask, stride=16)


def stg128(addr_reg: int, src: int, mask: int = FULL_MASK) -> Op:
    return Op("STG.E.128.SYS", None, (addr_reg, src), mask, stride=16)


def sts(width_bits: int, src: int, mask: int = FULL_MASK, stride: int | None = None) -> Op:
    """A shared store; one active lane writes at its own address (mode 2)."""
    name = "STS" if width_bits == 32 else f"STS.{width_bits}"
    if mask == 1:
        return Op(name, None, (5, src), mask, deltas=())
    return Op(name, None, (5, src), mask, stride=stride if stride is not None else width_bits // 8)


def lds(width_bits: int, dst: int, broadcast: bool = False) -> Op:
    name = "LDS" if width_bits == 32 else f"LDS.{width_bits}"
    return Op(name, dst, (5,), stride=0 if broadcast else width_bits // 8)


def warp_reduce(value: int, tmp: int, op: str = "FADD") -> list[Op]:
    """Butterfly reduction over 32 lanes: five shuffles and combines."""
    out: list[Op] = []
    for _ in range(5):
        out += [Op("SHFL.BFLY", tmp, (value,)), Op(op, value, (value, tmp))]
    return out


def index_prologue(extra: int = 0) -> list[Op]:
    ops = [Op("S2R", 0), Op("S2R", 1), Op("IMAD", 2, (1, 0)), Op("IMAD.WIDE", 4, (2, 3))]
    return ops + [Op("IMAD.WIDE", 6 + 2 * i, (2, 3)) for i in range(extra)]


def row_stores(rows: int, lanes_per_row: int, lane_bytes: int, pitch: int, opcode: str,
               src: int) -> list[tuple[Op, int]]:
    """Stores of ``rows`` rows of ``lanes_per_row`` x ``lane_bytes`` bytes, a
    row every ``pitch`` bytes: as many rows per warp store as fit in 32 lanes.
    Returns (op, first row) pairs; the op's lanes step through the rows with
    fixed deltas (the tracer's base + deltas form)."""
    per = 32 // lanes_per_row
    out = []
    for first in range(0, rows, per):
        active = min(per, rows - first) * lanes_per_row
        step = pitch - lane_bytes * (lanes_per_row - 1)
        deltas = tuple(lane_bytes if (i + 1) % lanes_per_row else step for i in range(active - 1))
        out.append((Op(opcode, None, (6, src), lanes(active), deltas=deltas), first))
    return out
