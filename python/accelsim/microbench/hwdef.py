"""The hardware description the microbenchmark generators are sized from.

The real suite reads a "hardware def" (SM count, warp size, cache sizes,
clocks) so that one source fits every GPU; here the same facts come from a
GPU config, so a benchmark built for one config is sized for that GPU.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HardwareDef:
    name: str
    sm_count: int
    warp_size: int
    core_clock_mhz: float
    max_threads_per_sm: int
    max_threads_per_cta: int
    l1d_bytes: int        # L1D of a kernel that uses no shared memory (adaptive split)
    l1d_line: int
    l2_bytes: int
    l2_line: int
    sector_bytes: int
    shmem_per_cta: int

    @classmethod
    def from_config(cls, config) -> "HardwareDef":
        """Reads what the generators need from an ``accelsim.Config``."""
        adaptive = bool(config["adaptive_l1_shmem"])
        l1 = int(config["unified_l1_shmem_size"]) if adaptive else int(config["l1d_size"])
        threads_sm = int(config["max_threads_per_sm"])
        return cls(
            name=config.name,
            sm_count=int(config["sm_count"]),
            warp_size=int(config["warp_size"]),
            core_clock_mhz=float(config["core_clock"]),
            max_threads_per_sm=threads_sm,
            # CUDA's per-block limit is 1024 threads on every generation since Fermi.
            max_threads_per_cta=min(1024, threads_sm),
            l1d_bytes=l1,
            l1d_line=int(config["l1d_line"]),
            l2_bytes=int(config["l2_size"]),
            l2_line=int(config["l2_line"]),
            sector_bytes=int(config["l2_sector"]),
            shmem_per_cta=int(config["shmem_per_cta"]),
        )

    def warps(self, threads: int) -> int:
        return -(-threads // self.warp_size)
