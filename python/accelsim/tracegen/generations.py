"""Kernels that exercise one GPU generation's own instructions, written as the
SASS those generations' compilers emit, for timing-property tests:

* ``async_copy_kernel`` (Ampere, sm_80+): ``LDGSTS`` copies global memory
  into shared memory without a register; ``LDGDEPBAR`` closes the copy
  group and ``DEPBAR.LE SB0, 0x0`` waits for it; arithmetic placed before the
  wait overlaps with the copy, arithmetic after it does not.
* ``ldsm_kernel`` (Turing+): ``LDSM.16.M88.4`` loads matrix fragments from
  shared memory (stored first with ``STS``) and a dependent ``HMMA`` uses them.
* ``tensor_kernel``: a stream of independent warp-wide tensor instructions
  (``HMMA`` shaped per generation, or Hopper's ``HGMMA``), one warp per
  sub-core, so the issue rate is the tensor units' throughput.
* ``tma_kernel`` (Hopper, sm_90): a producer warp issues ``UTMALDG`` (a TMA
  bulk tensor load, no per-lane addresses) and arrives on an mbarrier
  (``SYNCS``); consumer warps wait on it (``SYNCS``) and run ``HGMMA``.
"""
from __future__ import annotations

from accelsim.tracegen.model import Inst, Kernel, ThreadBlock

GLOBAL_BASE = 0x7F4A_0000_0000
SHARED_BASE = 0x0000_7F4A_6000_0000  # Kernel.shmem_base: the shared window

#: The warp-wide tensor opcode each generation's compiler emits for FP16 MMA.
TENSOR_OPCODE = {70: "HMMA.884.F32.F32.STEP0", 72: "HMMA.884.F32.F32.STEP0",
                 75: "HMMA.1688.F32", 80: "HMMA.16816.F32", 86: "HMMA.16816.F32",
                 87: "HMMA.16816.F32", 89: "HMMA.16816.F32", 90: "HMMA.16816.F32"}


def _lanes(base: int, stride: int) -> list[int]:
    return [base + lane * stride for lane in range(32)]


def _exit() -> Inst:
    return Inst("EXIT")


def async_copy_kernel(arith_before_wait: int, arith_after_wait: int, *, lines: int = 4,
                      binary_version: int = 80, name: str = "async_copy") -> Kernel:
    """One warp: ``lines`` LDGSTS.128 of never-touched global lines into
    shared memory, ``arith_before_wait`` dependent FFMAs, LDGDEPBAR, DEPBAR,
    ``arith_after_wait`` dependent FFMAs, an LDS of the copied data, EXIT."""
    warp: list[Inst] = []
    for i in range(lines):
        # 32 lanes x 16 B = 512 B: four whole lines per instruction, each far apart.
        src = _lanes(GLOBAL_BASE + i * 0x10000, 16)
        warp.append(Inst("LDGSTS.E.BYPASS.128", srcs=(2, 4), addrs=src, mem_width=16))
    for _ in range(arith_before_wait):
        warp.append(Inst("FFMA", dst=10, srcs=(10, 11, 12)))
    warp.append(Inst("LDGDEPBAR"))
    warp.append(Inst("DEPBAR.LE"))
    for _ in range(arith_after_wait):
        warp.append(Inst("FFMA", dst=10, srcs=(10, 11, 12)))
    warp.append(Inst("LDS.U.128", dst=20, srcs=(5,), addrs=_lanes(SHARED_BASE, 16), mem_width=16))
    warp.append(Inst("FADD", dst=21, srcs=(20, 10)))
    warp.append(_exit())
    return Kernel(name, (1, 1, 1), (32, 1, 1), [ThreadBlock((0, 0, 0), [warp])],
                  shmem=lines * 512, binary_version=binary_version)


def ldsm_kernel(loads: int, *, binary_version: int = 80, name: str = "ldsm") -> Kernel:
    """One warp: STS a tile, BAR, then ``loads`` dependent LDSM -> HMMA pairs."""
    warp = [Inst("STS.128", srcs=(5, 8), addrs=_lanes(SHARED_BASE, 16), mem_width=16),
            Inst("BAR.SYNC")]
    for i in range(loads):
        warp.append(Inst("LDSM.16.M88.4", dst=12, srcs=(5, 30),
                         addrs=_lanes(SHARED_BASE + (i % 4) * 16, 16), mem_width=16))
        warp.append(Inst(TENSOR_OPCODE.get(binary_version, "HMMA.16816.F32"), dst=30,
                         srcs=(12, 16, 30)))
    warp.append(_exit())
    return Kernel(name, (1, 1, 1), (32, 1, 1), [ThreadBlock((0, 0, 0), [warp])], shmem=512,
                  binary_version=binary_version)


def tensor_kernel(per_warp: int, *, warps: int = 4, binary_version: int = 80,
                  opcode: str | None = None, name: str = "tensor_rate") -> Kernel:
    """``warps`` warps (one per sub-core) each issuing ``per_warp`` independent
    tensor instructions (8 accumulators in rotation, no dependences)."""
    op = opcode or TENSOR_OPCODE[binary_version]
    block = []
    for _ in range(warps):
        block.append([Inst(op, dst=40 + 4 * (i % 8), srcs=(10, 12, 40 + 4 * (i % 8)))
                      for i in range(per_warp)] + [_exit()])
    return Kernel(name, (1, 1, 1), (32 * warps, 1, 1), [ThreadBlock((0, 0, 0), block)],
                  binary_version=binary_version)


def tma_kernel(hgmma_per_consumer: int, *, consumers: int = 3, name: str = "tma_hgmma") -> Kernel:
    """Warp 0 (producer): UTMALDG + SYNCS.ARRIVE; warps 1.. (consumers): SYNCS
    try-wait, ``hgmma_per_consumer`` HGMMA.64x128x16, WARPGROUP.DEPBAR-style
    wait (SYNCS), EXIT. Sm_90."""
    producer = [Inst("UTMALDG.2D", srcs=(4, 6)), Inst("SYNCS.ARRIVE.TRANS64.A1T0"), _exit()]
    block = [producer]
    for _ in range(consumers):
        warp = [Inst("SYNCS.PHASECHK.TRANS64.TRYWAIT")]
        warp += [Inst("HGMMA.64x128x16.F32", dst=24 + 4 * (i % 8), srcs=(24 + 4 * (i % 8),))
                 for i in range(hgmma_per_consumer)]
        warp += [Inst("FADD", dst=60, srcs=(24, 28)), _exit()]
        block.append(warp)
    return Kernel(name, (1, 1, 1), (32 * (consumers + 1), 1, 1), [ThreadBlock((0, 0, 0), block)],
                  shmem=16384, binary_version=90)
