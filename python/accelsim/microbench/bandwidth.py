"""Attained bandwidth of L1, shared memory, L2 and DRAM.

L1 and shared memory are per-SM resources, so their kernels are one thread
block of the largest size (the rate of one SM, B/clk/SM). L2 and DRAM are
shared by the GPU, so those kernels put a block on every SM (B/clk).
"""
from __future__ import annotations

from accelsim.microbench import sass
from accelsim.microbench.benchmark import Built
from accelsim.microbench.streaming import (COUNTER, GID, INDEX, OUT, T0, T1, TMP, Stream,
                                           stream_warp)
from accelsim.tracegen import Inst, Kernel, ThreadBlock

# Loads as sm_70 compiles them: 32/64/128-bit per thread, cached in L1 by
# default; .STRONG.GPU is how L1-bypassing (ld.global.cg) loads appear.
# The real kernels load 4 x 32-bit, 2 x 64-bit or 1 x 128-bit values per loop
# iteration (one 128 B line or two per warp load) and add each into a sink.
L1_LOADS = {32: ("LDG.E", "FADD", 4), 64: ("LDG.E.64", "DADD", 2), 128: ("LDG.E.128", "FADD", 1)}


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


# nvcc unrolls the real kernels' 256-iteration timed loop: the PTX it emits
# for these loop shapes (a constant power-of-two array size) has 32 source
# iterations per loop body, so the counter/compare/branch appear once per 32.
L1_LOOP_UNROLL = 32


def l1_bw(bits: int, hw, reps: int, *, unroll: int | None = None, threads: int | None = None,
          loop_unroll: int = L1_LOOP_UNROLL) -> Built:
    """Per-SM L1 hit bandwidth for one access width; the buffer is a quarter
    of the L1 so it stays resident after the warm-up sweep."""
    load, add, per_iteration = L1_LOADS[bits]
    unroll = unroll or per_iteration
    width = bits // 8
    n = threads or hw.max_threads_per_cta
    rounds = resident_rounds(hw.l1d_bytes // 4, n, width)
    s = Stream(load, width, add, n, footprint=rounds * n * width)
    k = grid_kernel(f"_Z9l1_bw_{bits}Pf", 1, n,
                    lambda m, f: stream_warp(s, m, f, warm=rounds, reps=reps, unroll=unroll,
                                            loop_unroll=loop_unroll))
    return Built(commands=[k], work=reps * unroll * n * width, sms=1)


def shared_chase_warp(mask: int, first: int, *, threads: int, elements: int, reps: int,
                      unroll: int) -> list[Inst]:
    """Each thread chases its own index chain through shared memory
    (``i = s[i]`` with ``s[i] = (i + threads) % n``): consecutive lanes read
    consecutive words, so a warp's load touches every bank once, and each
    thread's loads are dependent, so the 32 warps' loads overlap only with
    each other. This is how the real shared-bandwidth benchmark is built."""
    def addrs(step: int) -> list[int]:
        return [4 * ((first + lane + step * threads) % elements) for lane in sass.lanes(mask)]

    body = sass.global_thread_id(mask, GID, TMP) + [Inst("MOV", mask, dst=COUNTER)]
    for k in range(-(-elements // threads)):   # s[i] = (i + stride) % n, block-strided
        body += [Inst("IADD3", mask, dst=TMP, srcs=(GID, sass.RZ, sass.RZ)),
                 Inst("STS", mask, srcs=(GID, TMP), addrs=addrs(k))]
        body += sass.loop_tail(mask, COUNTER)
    body += [Inst("MOV", mask, dst=INDEX, srcs=(GID,)), Inst("BAR.SYNC", mask),
             sass.clock(mask, T0), Inst("MOV", mask, dst=COUNTER)]
    for r in range(reps):
        body += [Inst("LDS.U.32", mask, dst=INDEX, srcs=(INDEX,), addrs=addrs(r * unroll + u))
                 for u in range(unroll)]
        body += sass.loop_tail(mask, COUNTER)
    body += [Inst("BAR.SYNC", mask), sass.clock(mask, T1),
             Inst("IADD3", mask, dst=T1, srcs=(T1, T0, sass.RZ)),
             sass.store_word(mask, OUT, INDEX, [sass.OUT_BASE + 4 * (first + i) for i in sass.lanes(mask)]),
             Inst("EXIT", mask)]
    return body


def shared_bw(hw, reps: int, *, unroll: int = 4, threads: int | None = None,
              footprint: int = 32 * 1024) -> Built:
    """Per-SM shared memory bandwidth: a full block of threads, each reading
    32-bit words along its own dependent chain (``unroll`` loads per loop
    iteration, as the compiler unrolls the loop)."""
    n = threads or hw.max_threads_per_cta
    size = min(footprint, hw.shmem_per_cta)
    elements = size // 4
    k = grid_kernel("_Z9shared_bwPmS_Pjj", 1, n,
                    lambda m, f: shared_chase_warp(m, f, threads=n, elements=elements, reps=reps,
                                                   unroll=unroll), shmem=size)
    return Built(commands=[k], work=reps * unroll * n * 4, sms=1)


# L1-bypassing loads by access width (bytes per thread), as sm_70 compiles
# ld.global.cg of a double / float4; the consumer keeps the value live.
BYPASS_LOADS = {8: ("LDG.E.64.STRONG.GPU", "DADD"), 16: ("LDG.E.128.STRONG.GPU", "FADD")}


def gpu_stream(name: str, hw, reps: int, *, fresh: bool, unroll: int, threads: int,
               ctas_per_sm: int, width: int = 16, footprint: int | None = None) -> Built:
    """L1-bypassing loads (``width`` bytes per thread) from ``ctas_per_sm``
    blocks on every SM. Not ``fresh``: the buffer is L2-resident (``footprint``
    bytes, default a quarter of the L2, loaded by a warm-up sweep)."""
    if width not in BYPASS_LOADS:
        raise ValueError(f"access width {width} B: expected one of {sorted(BYPASS_LOADS)}")
    load, add = BYPASS_LOADS[width]
    ctas = hw.sm_count * ctas_per_sm
    total = ctas * threads
    if fresh:
        s, warm = Stream(load, width, add, total), 0
    else:
        warm = resident_rounds(footprint or hw.l2_bytes // 4, total, width)
        s = Stream(load, width, add, total, footprint=warm * total * width)
    k = grid_kernel(name, ctas, threads,
                    lambda m, f: stream_warp(s, m, f, warm=warm, reps=reps, unroll=unroll))
    return Built(commands=[k], work=reps * unroll * total * width, sms=1)


def l2_bw(hw, reps: int, *, unroll: int = 4, threads: int = 256, ctas_per_sm: int = 1,
          width: int = 16, footprint: int | None = None) -> Built:
    return gpu_stream("_Z5l2_bwPf", hw, reps, fresh=False, unroll=unroll, threads=threads,
                      ctas_per_sm=ctas_per_sm, width=width, footprint=footprint)


def dram_bw(hw, reps: int, *, unroll: int = 4, threads: int = 256, ctas_per_sm: int = 1,
            width: int = 16) -> Built:
    """Every access a line never read before: all L2 misses."""
    return gpu_stream("_Z6mem_bwPf", hw, reps, fresh=True, unroll=unroll, threads=threads,
                      ctas_per_sm=ctas_per_sm, width=width)
