"""Multi-stream workloads: several kernels on different CUDA streams, for the
stream scheduler and the per-stream statistics.

``l2_chase_streams``: every stream runs the same one-thread pointer chase
over one shared chain of lines, with loads that bypass L1 (``.STRONG.GPU``,
as the L2 latency microbenchmark does), so each load is exactly one L2 sector
read. ``stream_pair``: a streaming copy on one stream beside an FP32-bound
kernel on another.
"""
from __future__ import annotations

from pathlib import Path

from accelsim.tracegen.model import Inst, Kernel, ThreadBlock
from accelsim.tracegen.writer import write_workload

CHAIN_BASE = 0x00007F0785000000
COPY_SRC = 0x00007F4A40000000
COPY_DST = 0x00007F4A50000000
FMA_OUT = 0x00007F4A60000000
# Stream ids as the tracer prints them: CUstream pointer values.
FIRST_STREAM = 94469360459968


def chase_warp(loads: int, base: int = CHAIN_BASE, stride: int = 128 * 33) -> list[Inst]:
    """One thread, ``loads`` dependent 8-byte L2 loads (each to its own line)."""
    one = 0x1
    out = [Inst("S2R", one, dst=0), Inst("MOV", one, dst=2)]
    for i in range(loads):
        out += [Inst("LDG.E.64.STRONG.GPU", one, dst=2, srcs=(2,), addrs=[base + stride * i]),
                Inst("IADD3", one, dst=4, srcs=(4,)),
                Inst("ISETP.NE.AND", one, srcs=(4,)),
                Inst("BRA", one)]
    return out + [Inst("EXIT", one)]


def l2_chase_streams(folder, streams: int = 4, loads: int = 32) -> Path:
    """``streams`` one-thread L2 pointer-chase kernels (ids 1..n), one per stream."""
    kernels = [Kernel(name="_Z6l2_latPjS_PmS0_", grid=(1, 1, 1), block=(1, 1, 1), id=s + 1,
                      nregs=16, stream=FIRST_STREAM + 0x1000 * s,
                      blocks=[ThreadBlock(warps=[chase_warp(loads)])])
               for s in range(streams)]
    return write_workload(Path(folder), kernels)


def _grid(name: str, grid: int, block: int, warp_fn, kid: int, stream: int) -> Kernel:
    k = Kernel(name=name, grid=(grid, 1, 1), block=(block, 1, 1), id=kid, nregs=16, stream=stream)
    for bx in range(grid):
        k.blocks.append(ThreadBlock(coord=(bx, 0, 0),
                                    warps=[warp_fn(bx * block + 32 * w) for w in range(block // 32)]))
    return k


def copy_warp(first: int, iterations: int, threads: int) -> list[Inst]:
    """Streaming: float4 loads and stores, one fresh line per lane group."""
    out = [Inst("S2R", dst=0), Inst("S2R", dst=3), Inst("IMAD", dst=0, srcs=(3, 0))]
    for it in range(iterations):
        off = [16 * (i + it * threads) for i in range(first, first + 32)]
        out += [Inst("LDG.E.128.SYS", dst=4, srcs=(2,), addrs=[COPY_SRC + o for o in off]),
                Inst("STG.E.128.SYS", srcs=(6, 4), addrs=[COPY_DST + o for o in off]),
                Inst("IADD3", dst=0, srcs=(0,))]
    return out + [Inst("EXIT")]


def fma_warp(first: int, ffmas: int) -> list[Inst]:
    """Compute-bound: FFMA chains, one store at the end."""
    body = [Inst("FFMA", dst=4 + i % 4, srcs=(4 + i % 4, 8, 9)) for i in range(ffmas)]
    return [Inst("S2R", dst=0)] + body + [
        Inst("STG.E.SYS", srcs=(2, 4), addrs=[FMA_OUT + 4 * (first + i) for i in range(32)]),
        Inst("EXIT")]


def stream_pair(folder, ctas: int = 16, block: int = 128, iterations: int = 8,
                ffmas: int = 512) -> Path:
    """Kernel 1 (stream A): a streaming copy; kernel 2 (stream B): FP32-bound."""
    threads = ctas * block
    copy = _grid("_Z10copyFloat4PK6float4PS_i", ctas, block,
                 lambda f: copy_warp(f, iterations, threads), 1, FIRST_STREAM)
    fma = _grid("_Z8fma_loopPfi", ctas, block, lambda f: fma_warp(f, ffmas), 2,
                FIRST_STREAM + 0x1000)
    return write_workload(Path(folder), [copy, fma])
