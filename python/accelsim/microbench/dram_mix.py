"""DRAM bandwidth under a mix of reads and writes.

Two shapes, each as the benchmark it reproduces is written:

* ``suite_mem_bw``: the reference microbenchmark suite's ``mem_bw`` (the
  figure the TITAN V's "Mem BW" line reports). Every thread of a full GPU
  (as many blocks of the largest size as an SM holds, on every SM) walks a
  grid-stride loop over arrays of twice the L2, loading one float4 from each
  of five arrays (L1-bypassing) and storing their sum to a sixth. The suite
  divides the bytes of all six arrays by thread 0's clock interval over one
  pass; the twin is one pass, its bytes over the kernel's cycles
  (``Benchmark.single_run``).
* ``dram_rw_bw``: a steady grid-stride stream of ``reads`` loads and one
  store per element from / to separate arrays far larger than L2 (STREAM's
  scale, triad and gpu-benches' sch_triad for 1, 2, 3 reads), timed by the
  two-length difference once the L2 is full of dirty lines, so the writes
  reach DRAM inside the timed part.
"""
from __future__ import annotations

from accelsim.microbench import sass
from accelsim.microbench.bandwidth import grid_kernel
from accelsim.microbench.benchmark import Built
from accelsim.microbench.streaming import ACC0, ADDR, COUNTER, GID, OUT, T0, T1, TMP, VALUE0
from accelsim.tracegen import Inst

# (load, store, add) per access width: L1-bypassing loads (ld.global.cg)
_OPS = {8: ("LDG.E.64.STRONG.GPU", "STG.E.64.SYS", "DADD"), 16: ("LDG.E.128.STRONG.GPU", "STG.E.128.SYS", "FADD")}
# arrays start at a 2 MiB boundary each, as cudaMalloc places large buffers
_ALIGN = 2 << 20


def _bases(arrays: int, size: int) -> list[int]:
    span = -(-size // _ALIGN) * _ALIGN
    return [sass.DATA_BASE + a * span for a in range(arrays)]


def _step(mask: int, lanes_idx: list[int], bases: list[int], reads: int, width: int) -> list[Inst]:
    """One grid-stride step: the address, ``reads`` independent loads, the
    adds that combine them, the store of the sum to the last array."""
    load, store, add = _OPS[width]
    body = [sass.element_address(mask, ADDR, GID, 4)]
    body += [Inst(load, mask, dst=VALUE0 + 4 * u, srcs=(ADDR,), addrs=[bases[u] + width * i for i in lanes_idx])
             for u in range(reads)]
    body += [Inst(add, mask, dst=ACC0, srcs=(VALUE0, VALUE0 + 4 * u)) for u in range(1, max(2, reads))]
    body.append(Inst(store, mask, srcs=(ADDR, ACC0), addrs=[bases[reads] + width * i for i in lanes_idx]))
    return body + sass.loop_tail(mask, COUNTER)


def _prologue(mask: int, arrays: int) -> list[Inst]:
    return sass.global_thread_id(mask, GID, TMP) + [sass.param(mask, 4 + 2 * a) for a in range(arrays)]


def _epilogue(mask: int, first: int) -> list[Inst]:
    return [Inst("BAR.SYNC", mask), sass.clock(mask, T1), Inst("IADD3", mask, dst=T1, srcs=(T1, T0, sass.RZ)),
            sass.store_word(mask, OUT, T1, [sass.OUT_BASE + 4 * (first + i) for i in sass.lanes(mask)]),
            Inst("EXIT", mask)]


def suite_mem_bw(hw, reps: int = 1, *, reads: int = 5, array_bytes: int | None = None) -> Built:
    """``reps`` passes of the suite's mem_bw over ``reads`` + 1 arrays of
    ``array_bytes`` (default twice the L2) each."""
    size = array_bytes or 2 * hw.l2_bytes
    threads = hw.max_threads_per_cta
    ctas = hw.sm_count * max(1, hw.max_threads_per_sm // threads)
    total, n = ctas * threads, size // 16
    bases = _bases(reads + 1, size)

    def warp(mask: int, first: int) -> list[Inst]:
        body = _prologue(mask, reads + 1) + [Inst("BAR.SYNC", mask), sass.clock(mask, T0),
                                               Inst("MOV", mask, dst=COUNTER)]
        for _ in range(reps):
            for start in range(0, n, total):  # lanes past the end drop out of the last step
                live = [lane for lane in sass.lanes(mask) if start + first + lane < n]
                if live:
                    m = sum(1 << lane for lane in live)
                    body += _step(m, [start + first + lane for lane in live], bases, reads, 16)
        return body + _epilogue(mask, first)

    k = grid_kernel("_Z6mem_bwPfS_S_S_S_S_PjS0_j", ctas, threads, warp)
    return Built(commands=[k], work=reps * (reads + 1) * n * 16, sms=1)


def dram_rw_bw(hw, reps: int, *, reads: int = 3, threads: int = 1024, ctas_per_sm: int = 1,
               width: int = 8) -> Built:
    """``reps`` grid-stride steps of ``reads`` loads and one store per thread,
    every element new (arrays of ``reps`` grid sweeps each)."""
    total = hw.sm_count * ctas_per_sm * threads
    bases = _bases(reads + 1, reps * total * width)

    def warp(mask: int, first: int) -> list[Inst]:
        body = _prologue(mask, reads + 1) + [Inst("BAR.SYNC", mask), sass.clock(mask, T0),
                                               Inst("MOV", mask, dst=COUNTER)]
        for r in range(reps):
            body += _step(mask, [r * total + first + lane for lane in sass.lanes(mask)], bases, reads, width)
        return body + _epilogue(mask, first)

    k = grid_kernel("_Z10dram_rw_bwPdPKdS1_S1_m", hw.sm_count * ctas_per_sm, threads, warp)
    return Built(commands=[k], work=reps * total * width * (reads + 1), sms=1)
