"""Generated benchmark workloads (Accel-Sim traces written with
``accelsim.tracegen``): full-GPU streaming kernels, a compute-bound kernel and
a one-thread pointer chase."""
from __future__ import annotations

from pathlib import Path

from accelsim.tracegen import FULL_MASK, Inst, Kernel, Memcpy, ThreadBlock, write_workload
from accelsim.tracegen.examples import write_vecadd

SRC = 0x00007F4A40000000
DST = 0x00007F4A50000000


def _prologue(mask: int = FULL_MASK) -> list[Inst]:
    return [Inst("S2R", mask, dst=0), Inst("S2R", mask, dst=3),
            Inst("IMAD", mask, dst=0, srcs=(3, 0))]


def _grid_kernel(name: str, grid: int, block: int, warp_fn, nregs: int = 16) -> Kernel:
    k = Kernel(name=name, grid=(grid, 1, 1), block=(block, 1, 1), nregs=nregs)
    for bx in range(grid):
        warps = [warp_fn(bx * block + 32 * w) for w in range(block // 32)]
        k.blocks.append(ThreadBlock(coord=(bx, 0, 0), warps=warps))
    return k


def vecadd(folder: Path, n: int = 262_144, block: int = 256) -> Path:
    """c = a + b over n floats (1,024 x 256 threads at the default size)."""
    return write_vecadd(folder, n=n, block=block)


def copy_float4(folder: Path, total_bytes: int = 5 * 2**19, grid: int = 320, block: int = 256) -> Path:
    """dst = src in float4 (16 B per lane) with a grid-stride loop; the default
    copies 2.5 MiB with 320 x 256 threads (two iterations each)."""
    threads = grid * block
    iterations = max(1, total_bytes // (16 * threads))

    def warp(first: int) -> list[Inst]:
        ids = range(first, first + 32)
        out = _prologue()
        for it in range(iterations):
            off = [16 * (i + it * threads) for i in ids]
            out += [Inst("IMAD.WIDE", dst=2, srcs=(0, 8)),
                    Inst("LDG.E.128.SYS", dst=4, srcs=(2,), addrs=[SRC + o for o in off]),
                    Inst("IMAD.WIDE", dst=6, srcs=(0, 8)),
                    Inst("STG.E.128.SYS", srcs=(6, 4), addrs=[DST + o for o in off]),
                    Inst("IADD3", dst=0, srcs=(0,)),
                    Inst("ISETP.GE.AND", srcs=(0,)),
                    Inst("BRA")]
        return out + [Inst("EXIT")]

    k = _grid_kernel("_Z10copyFloat4PK6float4PS_i", grid, block, warp, nregs=12)
    return write_workload(folder, [Memcpy(SRC, total_bytes), k])


def compute_bound(folder: Path, grid: int = 320, block: int = 256, ffmas: int = 256) -> Path:
    """FP32-bound: every warp runs `ffmas` FFMAs in four independent chains."""

    def warp(first: int) -> list[Inst]:
        body = [Inst("FFMA", dst=4 + i % 4, srcs=(4 + i % 4, 8, 9)) for i in range(ffmas)]
        return _prologue() + body + [Inst("STG.E.SYS", srcs=(2, 4),
                                          addrs=[DST + 4 * (first + i) for i in range(32)]),
                                     Inst("EXIT")]

    return write_workload(folder, [_grid_kernel("_Z8fma_loopPfi", grid, block, warp)])


def pointer_chase(folder: Path, steps: int = 395, stride: int = 4096 + 128) -> Path:
    """One thread follows a chain of dependent 8-byte loads, each to a new
    line (an L2 miss), as the latency microbenchmarks do."""
    one = 0x1
    insts = _prologue(one) + [Inst("MOV", one, dst=2)]
    for i in range(steps):
        insts += [Inst("LDG.E.64.SYS", one, dst=2, srcs=(2,), addrs=[SRC + stride * (i + 1)]),
                  Inst("IADD3", one, dst=4, srcs=(4,)),
                  Inst("ISETP.NE.AND", one, srcs=(4,)),
                  Inst("BRA", one)]
    insts.append(Inst("EXIT", one))
    k = Kernel(name="_Z11pointerChasePmi", grid=(1, 1, 1), block=(1, 1, 1), nregs=8,
               blocks=[ThreadBlock(warps=[insts])])
    return write_workload(folder, [k])
