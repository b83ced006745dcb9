"""Memory-system example workloads (generated traces).

``stream_per_warp``: every warp of a full-GPU grid streams its own
contiguous region with 128-bit loads that bypass L1 (``.STRONG.GPU``), all
loads independent, so the run is bound by DRAM. Each DRAM channel then sees
requests from many warps at once, every warp in its own rows: the request
order interleaves rows of the same banks. A first-come first-served DRAM
scheduler opens and closes rows for almost every request; FR-FCFS serves
the requests that hit the open row first. The DRAM schedulers' speed-up on
this workload is the memory-intensive example of docs/memory_system.md.
"""
from __future__ import annotations

from pathlib import Path

from accelsim.tracegen.model import FULL_MASK, Inst, Kernel, ThreadBlock
from accelsim.tracegen.writer import write_workload

BASE = 0x00007F0000000000


def stream_per_warp(ctas: int = 80, warps: int = 8, loads: int = 16, *,
                    region_stride: int = (1 << 20) + 4096, base: int = BASE) -> Kernel:
    """``ctas`` x ``warps`` warps; warp g reads ``loads`` x 512 B from
    ``base + g * region_stride`` onwards (16 B per lane, lanes contiguous)."""
    k = Kernel(name="_Z15stream_per_warpPf", grid=(ctas, 1, 1), block=(32 * warps, 1, 1), nregs=32)
    for c in range(ctas):
        ws = []
        for w in range(warps):
            start = base + (c * warps + w) * region_stride
            insts = [Inst("S2R", FULL_MASK, dst=1), Inst("IMAD.WIDE", FULL_MASK, dst=2, srcs=(1,))]
            for i in range(loads):
                addrs = [start + 512 * i + 16 * lane for lane in range(32)]
                insts.append(Inst("LDG.E.128.STRONG.GPU", FULL_MASK, dst=4 + 4 * (i % 6), srcs=(2,),
                                  addrs=addrs))
            insts += [Inst("FADD", FULL_MASK, dst=30, srcs=(4, 8)), Inst("EXIT", FULL_MASK)]
            ws.append(insts)
        k.blocks.append(ThreadBlock(coord=(c, 0, 0), warps=ws))
    return k


def write_stream_per_warp(folder, **options) -> Path:
    """Writes the workload into ``folder``; returns its kernelslist.g."""
    return write_workload(folder, [stream_per_warp(**options)])
