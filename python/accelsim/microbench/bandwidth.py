"""Attained bandwidth of L1, shared memory, L2 and DRAM.

L1 and shared memory are per-SM resources, so their kernels are one thread
block of the largest size (the rate of one SM, B/clk/SM). L2 and DRAM are
shared by the GPU, so those kernels put a block on every SM (B/clk).
"""
from __future__ import annotations

from accelsim.microbench import sass
from accelsim.microbench.benchmark import Built
from accelsim.microbench.streaming import BASE, COUNTER, GID, TMP, Stream, stream_warp
from accelsim.tracegen import Inst, Kernel, ThreadBlock

# Loads as sm_70 compiles them: 32/64/128-bit per thread, cached in L1 by
# default; .STRONG.GPU is how L1-bypassing (ld.global.cg) loads appear.
L1_LOADS = {32: ("LDG.E", "FADD"), 64: ("LDG.E.64", "DADD"), 128: ("LDG.E.128", "FADD")}


def grid_kernel(name: str, ctas: int, threads: int, warp_fn, shmem: int = 0) -> Kernel:
    k = Kernel(name=name, grid=(ctas, 1, 1), block=(threads, 1, 1), shmem=shmem, nregs=64)
    for c in range(ctas):
        warps = []
        for w in range(-(-threads // 32)):
            live = min(32, threads - 32 * w)
            warps.append(warp_fn((1 << live) - 1, c * threads + 32 * w))
        k.blocks.append(ThreadBlock(coord=(c, 0, 0), warps=warps))
    return k


def resident_rounds(target: int, threads: int, width: int) -> int:
    """Whole grid sweeps that fit in ``target`` bytes (at least one)."""
    return max(1, target // (threads * width))


def l1_bw(bits: int, hw, reps: int, *, unroll: int = 4, threads: int | None = None) -> Built:
    """Per-SM L1 hit bandwidth for one access width; the buffer is a quarter
    of the L1 so it stays resident after the warm-up sweep."""
    load, add = L1_LOADS[bits]
    width = bits // 8
    n = threads or hw.max_threads_per_cta
    rounds = resident_rounds(hw.l1d_bytes // 4, n, width)
    s = Stream(load, width, add, n, footprint=rounds * n * width)
    k = grid_kernel(f"_Z9l1_bw_{bits}Pf", 1, n,
                    lambda m, f: stream_warp(s, m, f, warm=rounds, reps=reps, unroll=unroll))
    return Built(commands=[k], work=reps * unroll * n * width, sms=1)


def shared_bw(hw, reps: int, *, unroll: int = 4, threads: int | None = None,
              footprint: int = 16 * 1024) -> Built:
    """Per-SM shared memory bandwidth: 32-bit loads, a warp reads 32
    consecutive words (one per bank, no conflicts). Each thread first
    stores its words (the array initialisation) and the block syncs."""
    n = threads or hw.max_threads_per_cta
    size = min(footprint, hw.shmem_per_cta)
    rounds = max(1, size // (4 * n))
    s = Stream("LDS.U.32", 4, "IADD3", n, footprint=rounds * n * 4, base=0)

    def warp(mask: int, first: int) -> list[Inst]:
        init = [Inst("STS", mask, srcs=(GID, TMP), addrs=s.addresses(first, mask, k))
                for k in range(rounds)]
        return stream_warp(s, mask, first, warm=0, reps=reps, unroll=unroll, init=init)

    k = grid_kernel("_Z9shared_bwPj", 1, n, warp, shmem=rounds * n * 4)
    return Built(commands=[k], work=reps * unroll * n * 4, sms=1)


def gpu_stream(name: str, hw, reps: int, *, fresh: bool, unroll: int, threads: int,
               ctas_per_sm: int) -> Built:
    """128-bit L1-bypassing loads from a block on every SM."""
    ctas = hw.sm_count * ctas_per_sm
    total = ctas * threads
    if fresh:
        s, warm = Stream("LDG.E.128.STRONG.GPU", 16, "FADD", total), 0
    else:  # a quarter of the L2: resident after the warm-up sweep
        warm = resident_rounds(hw.l2_bytes // 4, total, 16)
        s = Stream("LDG.E.128.STRONG.GPU", 16, "FADD", total, footprint=warm * total * 16)
    k = grid_kernel(name, ctas, threads,
                    lambda m, f: stream_warp(s, m, f, warm=warm, reps=reps, unroll=unroll))
    return Built(commands=[k], work=reps * unroll * total * 16, sms=1)


def l2_bw(hw, reps: int, *, unroll: int = 4, threads: int = 256, ctas_per_sm: int = 1) -> Built:
    return gpu_stream("_Z5l2_bwPf", hw, reps, fresh=False, unroll=unroll, threads=threads,
                      ctas_per_sm=ctas_per_sm)


def dram_bw(hw, reps: int, *, unroll: int = 4, threads: int = 256, ctas_per_sm: int = 1) -> Built:
    """Every access a line never read before: all L2 misses."""
    return gpu_stream("_Z6mem_bwPf", hw, reps, fresh=True, unroll=unroll, threads=threads,
                      ctas_per_sm=ctas_per_sm)
