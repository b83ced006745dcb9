"""Ready-made workloads. ``write_vecadd`` mirrors the SASS of a real sm_70
vecAdd(const float *a, const float *b, float *c, int n) trace: threads with
global id >= n leave at the first (predicated) EXIT, so the last warp has
partial masks."""
from __future__ import annotations

from pathlib import Path

from accelsim.tracegen.model import FULL_MASK, Inst, Kernel, Memcpy, ThreadBlock
from accelsim.tracegen.writer import write_workload

A_BASE = 0x00007F4A3C000000
B_BASE = 0x00007F4A3C100000
C_BASE = 0x00007F4A3C200000


def _lane_mask(count: int) -> int:
    return FULL_MASK if count >= 32 else (1 << count) - 1


def vecadd_warp(first_thread: int, lanes: int, n: int, a: int, b: int, c: int) -> list[Inst]:
    """One warp's instructions; ``first_thread`` = global id of lane 0."""
    alive = _lane_mask(lanes)
    in_range = _lane_mask(max(0, min(lanes, n - first_thread)))
    out = alive & ~in_range
    ids = [first_thread + i for i in range(32)]
    prologue = [
        Inst("MOV", alive, dst=1),
        Inst("S2R", alive, dst=6),
        Inst("S2R", alive, dst=3),
        Inst("IMAD", alive, dst=6, srcs=(6, 3)),
        Inst("ISETP.GE.AND", alive, srcs=(6,)),
        Inst("EXIT", out),  # @P0 EXIT: only the out-of-range lanes leave here
    ]
    if not in_range:
        return prologue
    m = in_range
    return prologue + [
        Inst("MOV", m, dst=7, imm=4),
        Inst("IMAD.WIDE", m, dst=2, srcs=(6, 7)),
        Inst("IMAD.WIDE", m, dst=4, srcs=(6, 7)),
        Inst("LDG.E.SYS", m, dst=2, srcs=(2,), addrs=[a + 4 * i for i in ids]),
        Inst("LDG.E.SYS", m, dst=5, srcs=(4,), addrs=[b + 4 * i for i in ids]),
        Inst("IMAD.WIDE", m, dst=6, srcs=(6, 7)),
        Inst("FADD", m, dst=9, srcs=(2, 5)),
        Inst("STG.E.SYS", m, srcs=(6, 9), addrs=[c + 4 * i for i in ids]),
        Inst("EXIT", m),
    ]


_ALIGN = 0x100000  # arrays start on 1 MiB boundaries, as cudaMalloc'd buffers of this size do


def array_bases(n: int, a: int = A_BASE, b: int | None = None,
                c: int | None = None) -> tuple[int, int, int]:
    """Base addresses of a, b and c (n floats each): each array not given is
    placed after the previous one, so they never overlap whatever n is (up to
    262,144 floats these are A_BASE, B_BASE, C_BASE)."""
    span = max(_ALIGN, -(-4 * n // _ALIGN) * _ALIGN)
    b = a + span if b is None else b
    c = b + span if c is None else c
    ranges = sorted([(a, "a"), (b, "b"), (c, "c")])
    for (lo, x), (hi, y) in zip(ranges, ranges[1:]):
        if hi < lo + 4 * n:
            raise ValueError(f"arrays {x} and {y} overlap: {n} floats from {lo:#x} reach past {hi:#x}")
    return a, b, c


def vecadd_kernel(n: int = 4096, block: int = 256, *, a: int = A_BASE, b: int | None = None,
                  c: int | None = None, binary_version: int = 70, kernel_id: int = 1) -> Kernel:
    if n <= 0 or not 0 < block <= 1024:
        raise ValueError("need n > 0 and 0 < block <= 1024")
    a, b, c = array_bases(n, a, b, c)
    grid = (n + block - 1) // block
    k = Kernel(name="_Z6vecAddPKfS0_Pfi", grid=(grid, 1, 1), block=(block, 1, 1), id=kernel_id,
               nregs=10, binary_version=binary_version)
    for bx in range(grid):
        warps = []
        for w in range((block + 31) // 32):
            lanes = min(32, block - 32 * w)
            warps.append(vecadd_warp(bx * block + 32 * w, lanes, n, a, b, c))
        k.blocks.append(ThreadBlock(coord=(bx, 0, 0), warps=warps))
    return k


def write_vecadd(folder, n: int = 4096, block: int = 256, *, a: int = A_BASE, b: int | None = None,
                 c: int | None = None, binary_version: int = 70, **options) -> Path:
    """Writes the vecadd workload (two MemcpyHtoD + one kernel) into
    ``folder``; returns its kernelslist.g. ``options``: version, lineinfo,
    address_mode, compression, interleave (see ``write_kernel``)."""
    if n <= 0:
        raise ValueError("need n > 0")
    a, b, c = array_bases(n, a, b, c)
    kernel = vecadd_kernel(n, block, a=a, b=b, c=c, binary_version=binary_version)
    return write_workload(folder, [Memcpy(a, 4 * n), Memcpy(b, 4 * n), kernel], **options)
