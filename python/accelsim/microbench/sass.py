"""SASS idioms the compiled microbenchmarks are made of, as trace records.

Register numbers are what the scoreboard sees: a trace names only the first
register of a 64-bit pair, and predicates / constant-bank operands are not
GPR operands, so they do not appear at all (``ISETP`` has no destination,
``MOV R2, c[0x0][0x160]`` has no source).
"""
from __future__ import annotations

from accelsim.tracegen import Inst

RZ = 255  # the zero register, as the tracer writes it

# Where the generated kernels' buffers live (the shape of cudaMalloc
# addresses on a 64-bit host). Far apart so that no benchmark's footprint,
# however large its sizes are set, runs into another buffer.
DATA_BASE = 0x00007F4A_0000_0000
OUT_BASE = 0x00007F4C_0000_0000


def param(mask: int, dst: int) -> Inst:
    """``MOV Rd, c[0x0][...]``: a kernel argument read from the constant bank."""
    return Inst("MOV", mask, dst=dst)


def clock(mask: int, dst: int) -> Inst:
    """``CS2R Rd, SR_CLOCKLO``: what ``clock()`` compiles to on sm_70."""
    return Inst("CS2R", mask, dst=dst)


def global_thread_id(mask: int, dst: int, tmp: int) -> list[Inst]:
    """blockIdx.x * blockDim.x + threadIdx.x (the usual three instructions)."""
    return [Inst("S2R", mask, dst=dst),            # SR_TID.X
            Inst("S2R", mask, dst=tmp),            # SR_CTAID.X
            Inst("IMAD", mask, dst=dst, srcs=(tmp, dst))]  # IMAD Rd, Rtmp, c[blockDim], Rd


def element_address(mask: int, dst: int, index: int, base: int) -> Inst:
    """``IMAD.WIDE Rd, Ri, <size>, Rbase``: &array[i] as a 64-bit pair."""
    return Inst("IMAD.WIDE", mask, dst=dst, srcs=(index, base))


def loop_tail(mask: int, counter: int) -> list[Inst]:
    """End of a compiled counted loop: i++; P0 = (i != n); @P0 BRA top.
    The branch is taken every iteration but the last, which the trace does not
    distinguish (no control flow is simulated: the PC order is the trace)."""
    return [Inst("IADD3", mask, dst=counter, srcs=(counter, RZ, RZ)),
            Inst("ISETP.NE.AND", mask, srcs=(counter,)),
            Inst("BRA", mask)]


def store_word(mask: int, addr_reg: int, value_reg: int, addrs: list[int],
               opcode: str = "STG.E.SYS") -> Inst:
    """A result store: keeps the measured work live, as the real benchmarks do
    (otherwise the compiler would delete it)."""
    return Inst(opcode, mask, srcs=(addr_reg, value_reg), addrs=addrs)


def lanes(mask: int) -> list[int]:
    return [i for i in range(32) if mask >> i & 1]
