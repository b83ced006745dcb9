"""Pointer-chase latency: one thread follows a chain of dependent loads.

Each loop iteration of the compiled benchmark is the dependent load (its
address register is the previous load's destination) followed by the loop
counter update, compare and branch. The counter work does not depend on the
load, so a step costs the load-to-use latency as long as the loop overhead
fits under it, which is what the hardware benchmark's clock() difference
divided by its iteration count reports.

A warm-up pass over the whole chain runs first (filling L1/L2 as the real
benchmark does), then the timed pass continues around the same ring.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from accelsim.microbench import sass
from accelsim.microbench.benchmark import Built
from accelsim.tracegen import Inst, Kernel, ThreadBlock

ONE = 0x1  # one active thread
PTR, COUNTER, T0, T1, OUT = 2, 4, 6, 8, 10  # registers (PTR and T* are 64-bit pairs)


def ring(base: int, elements: int, stride: int, start: int, count: int) -> list[int]:
    """Addresses of ``count`` steps around a ring of ``elements`` slots,
    ``stride`` bytes apart, starting at step ``start``."""
    return [base + stride * ((start + k) % elements) for k in range(count)]


def chase_loop(opcode: str, addrs: list[int]) -> list[Inst]:
    """``for (...) p = *p;`` one iteration per address."""
    out: list[Inst] = []
    for a in addrs:
        out.append(Inst(opcode, ONE, dst=PTR, srcs=(PTR,), addrs=[a]))
        out += sass.loop_tail(ONE, COUNTER)
    return out


def chase_thread(opcode: str, warm: list[int], timed: list[int], init: Sequence[Inst] = ()) -> list[Inst]:
    """The whole kernel of the single thread: set-up, optional array
    initialisation, warm-up pass, clock, timed pass, clock, result stores."""
    body = [sass.param(ONE, PTR), sass.param(ONE, OUT), Inst("MOV", ONE, dst=COUNTER)]
    body += list(init)
    body += chase_loop(opcode, warm)
    body += [sass.clock(ONE, T0), Inst("MOV", ONE, dst=COUNTER)]
    body += chase_loop(opcode, timed)
    body += [sass.clock(ONE, T1),
             Inst("IADD3", ONE, dst=T1, srcs=(T1, T0, sass.RZ)),  # stop - start
             sass.store_word(ONE, OUT, T1, [sass.OUT_BASE]),
             sass.store_word(ONE, OUT, PTR, [sass.OUT_BASE + 8]),  # keeps the chain live
             Inst("EXIT", ONE)]
    return body


def one_thread_kernel(name: str, insts: list[Inst], shmem: int = 0) -> Kernel:
    return Kernel(name=name, grid=(1, 1, 1), block=(1, 1, 1), shmem=shmem, nregs=16,
                  blocks=[ThreadBlock(coord=(0, 0, 0), warps=[insts])])


def global_chase(name: str, opcode: str, *, footprint: int, stride: int, warm: bool,
                 reps: int, fresh: bool = False) -> Built:
    """Chase over ``footprint`` bytes, ``stride`` bytes per step. ``fresh``:
    never revisit an address (every step a new line), no warm-up."""
    elements = max(1, footprint // stride)
    warm_addrs = ring(sass.DATA_BASE, elements, stride, 0, elements) if warm else []
    if fresh:
        timed = [sass.DATA_BASE + stride * k for k in range(reps)]
    else:
        timed = ring(sass.DATA_BASE, elements, stride, len(warm_addrs), reps)
    k = one_thread_kernel(name, chase_thread(opcode, warm_addrs, timed))
    return Built(commands=[k], work=reps)


def l1_lat(hw, reps: int, *, footprint: int | None = None, opcode: str = "LDG.E.64") -> Built:
    """L1 hit: 8-byte slots, 8 bytes apart, the ring fits L1 (a quarter of it).
    ``opcode``: e.g. ``LDG.E.64.CONSTANT`` (the read-only path) for a config
    whose L1 does not cache ordinary global loads."""
    size = footprint or min(32 * 1024, hw.l1d_bytes // 4)
    return global_chase("_Z6l1_latPmS_", opcode, footprint=size, stride=8, warm=True, reps=reps)


def l2_lat(hw, reps: int, *, footprint: int | None = None) -> Built:
    """L2 hit: L1 bypassed (``.STRONG.GPU``, as ld.global.cg compiles), one
    sector per step so every timed step is a different sector already in L2."""
    size = footprint or min(32 * 1024, hw.l2_bytes // 8)
    return global_chase("_Z6l2_latPmS_", "LDG.E.64.STRONG.GPU", footprint=size,
                        stride=hw.sector_bytes, warm=True, reps=reps)


DRAM_PATTERNS = ("stride", "sequential", "random")
# The random pattern's region: far beyond any L2, so a step never finds its
# line cached, and wide enough that two steps rarely share a DRAM row.
RANDOM_REGION = 1 << 30


def dram_lat(hw, reps: int, *, stride: int | None = None, pattern: str = "stride") -> Built:
    """DRAM: every step an address never touched before (L2 miss), L1 bypassed.

    ``stride`` (default): a page plus a line per step keeps consecutive steps
    off the same L2 set and DRAM row, as a stride beyond the L2 size does on
    hardware (this project's own kernel, ``accelsim.tune``).
    ``sequential``: consecutive 32 B sectors, one per step (the reference
    suite's ``mem_lat``: four threads read 8 B each of the same sector), so
    most steps find their DRAM row open.
    ``random``: a random line of a 1 GiB region per step (a pointer chase
    through a random permutation of a buffer far larger than L2)."""
    if pattern not in DRAM_PATTERNS:
        raise ValueError(f"dram_lat pattern {pattern!r}: expected one of {', '.join(DRAM_PATTERNS)}")
    if pattern == "sequential":
        return _sector_chase(hw, reps)
    if pattern == "random":
        rng = random.Random(1)  # fixed: the same steps in every run
        lines = rng.sample(range(RANDOM_REGION // hw.l2_line), reps)
        timed = [sass.DATA_BASE + line * hw.l2_line for line in lines]
        k = one_thread_kernel("_Z7mem_latPmS_", chase_thread("LDG.E.64.STRONG.GPU", [], timed))
        return Built(commands=[k], work=reps)
    step = stride or (4096 + hw.l2_line)
    return global_chase("_Z7mem_latPmS_", "LDG.E.64.STRONG.GPU", footprint=step * reps,
                        stride=step, warm=False, reps=reps, fresh=True)


def _sector_chase(hw, reps: int) -> Built:
    """Four lanes chase their own chains through consecutive 8 B words, so
    each step reads one whole 32 B sector and the next step the next one."""
    lanes = 4
    mask = (1 << lanes) - 1
    body = [sass.param(mask, PTR), sass.param(mask, OUT), Inst("MOV", mask, dst=COUNTER),
            sass.clock(mask, T0), Inst("MOV", mask, dst=COUNTER)]
    for k in range(reps):
        base = sass.DATA_BASE + k * hw.sector_bytes
        body.append(Inst("LDG.E.64.STRONG.GPU", mask, dst=PTR, srcs=(PTR,),
                         addrs=[base + 8 * lane for lane in range(lanes)]))
        body += sass.loop_tail(mask, COUNTER)
    body += [sass.clock(mask, T1), Inst("IADD3", mask, dst=T1, srcs=(T1, T0, sass.RZ)),
             sass.store_word(mask, OUT, T1, [sass.OUT_BASE + 4 * lane for lane in range(lanes)]),
             Inst("EXIT", mask)]
    kernel = Kernel(name="_Z7mem_latPmS_", grid=(1, 1, 1), block=(lanes, 1, 1), nregs=16,
                    blocks=[ThreadBlock(coord=(0, 0, 0), warps=[body])])
    return Built(commands=[kernel], work=reps)


def shared_lat(hw, reps: int, *, footprint: int = 4096) -> Built:
    """Shared memory: a ring of 32-bit indices (``p = s[p]``, which sm_70
    compiles to ``LDS.U.32 Rp, [Rp.X4]``), initialised by the thread and a
    barrier first, as the real benchmark does."""
    size = min(footprint, hw.shmem_per_cta)
    elements = size // 4
    init: list[Inst] = []
    for i in range(elements):  # s[i] = (i + 1) % n
        init += [Inst("IADD3", ONE, dst=T0, srcs=(COUNTER, sass.RZ, sass.RZ)),
                 Inst("STS", ONE, srcs=(T1, T0), addrs=[4 * i])]
        init += sass.loop_tail(ONE, COUNTER)
    init.append(Inst("BAR.SYNC", ONE))
    timed = ring(0, elements, 4, 0, reps)
    k = one_thread_kernel("_Z10shared_latPjS_", chase_thread("LDS.U.32", [], timed, init), shmem=size)
    return Built(commands=[k], work=reps)
