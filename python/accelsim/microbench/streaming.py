"""The warp program shared by the bandwidth benchmarks: every thread loads
``unroll`` independent values per loop iteration and adds each into its own
accumulator, so loads never wait for each other and the memory level under
test is the only limit.

Thread g's k-th access reads element ``k * T + g`` (T = threads in the
grid): a warp's 32 lanes touch consecutive elements, i.e. fully coalesced
lines, and the whole grid sweeps the buffer once per ``k``. With a
``footprint`` the sweep wraps around (data stays resident in the cache under
test; a warm-up sweep loads it first); without one every access is fresh.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from accelsim.microbench import sass
from accelsim.tracegen import Inst

GID, TMP, BASE, ADDR, COUNTER, T0, T1, OUT, INDEX = 2, 3, 4, 6, 8, 10, 12, 14, 16
VALUE0, ACC0 = 20, 40  # loaded values (4 registers apart: 128-bit loads), accumulators


@dataclass(frozen=True)
class Stream:
    """What the loads look like and which buffer they sweep."""

    load: str             # opcode, e.g. LDG.E.64 or LDS.U.32
    width: int            # bytes per thread per load
    add: str              # consumer of each loaded value
    total_threads: int    # T
    footprint: int | None = None  # bytes; None: never revisit
    base: int = sass.DATA_BASE

    def addresses(self, first_thread: int, mask: int, k: int) -> list[int]:
        out = []
        for lane in sass.lanes(mask):
            offset = (k * self.total_threads + first_thread + lane) * self.width
            if self.footprint:
                offset %= self.footprint
            out.append(self.base + offset)
        return out


def load_and_use(s: Stream, mask: int, first: int, ks: list[int]) -> list[Inst]:
    """One unrolled batch: all loads first (independent), then their uses."""
    loads = [Inst(s.load, mask, dst=VALUE0 + 4 * u, srcs=(ADDR,), addrs=s.addresses(first, mask, k))
             for u, k in enumerate(ks)]
    uses = [Inst(s.add, mask, dst=ACC0 + 2 * u, srcs=(ACC0 + 2 * u, VALUE0 + 4 * u))
            for u in range(len(ks))]
    return loads + uses


def next_address(mask: int) -> list[Inst]:
    """The compiled loop's index arithmetic: i += step; i %= n (a mask: the
    sizes are powers of two); &array[i]."""
    return [Inst("IADD3", mask, dst=INDEX, srcs=(INDEX, sass.RZ, sass.RZ)),
            Inst("LOP3.LUT", mask, dst=INDEX, srcs=(INDEX,)),
            sass.element_address(mask, ADDR, INDEX, BASE)]


def stream_warp(s: Stream, mask: int, first: int, *, warm: int, reps: int, unroll: int,
                init: Sequence[Inst] = (), loop_unroll: int = 1) -> list[Inst]:
    """Prologue, ``warm`` single-load warm-up iterations, barrier, clock,
    ``reps`` timed iterations of ``unroll`` loads each, clock, store, exit.
    Every iteration recomputes its address, as the real kernels do; the loop
    tail closes every ``loop_unroll`` iterations (the compiler's unrolling)."""
    body = sass.global_thread_id(mask, GID, TMP)
    body += [sass.param(mask, BASE), Inst("MOV", mask, dst=INDEX, srcs=(GID,)),
             sass.element_address(mask, ADDR, INDEX, BASE),
             sass.param(mask, OUT), Inst("MOV", mask, dst=COUNTER)]
    body += [Inst("MOV", mask, dst=ACC0 + 2 * u) for u in range(unroll)]
    body += list(init)
    for k in range(warm):
        body += load_and_use(s, mask, first, [k]) + next_address(mask) + sass.loop_tail(mask, COUNTER)
    body += [Inst("BAR.SYNC", mask), sass.clock(mask, T0), Inst("MOV", mask, dst=COUNTER)]
    for r in range(reps):
        ks = [warm + r * unroll + u for u in range(unroll)]
        body += load_and_use(s, mask, first, ks) + next_address(mask)
        if (r + 1) % loop_unroll == 0 or r + 1 == reps:
            body += sass.loop_tail(mask, COUNTER)
    body += [sass.clock(mask, T1), Inst("IADD3", mask, dst=T1, srcs=(T1, T0, sass.RZ))]
    body += [Inst(s.add, mask, dst=ACC0, srcs=(ACC0, ACC0 + 2 * u)) for u in range(1, unroll)]
    body += [sass.store_word(mask, OUT, ACC0, [sass.OUT_BASE + 4 * (first + i) for i in sass.lanes(mask)]),
             Inst("EXIT", mask)]
    return body
