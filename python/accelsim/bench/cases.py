"""The benchmark cases, with the reference simulator's rates measured on the
project's machine (Accel-Sim, SM7_QV100) and the targets derived from them."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from accelsim.bench import workloads


@dataclass(frozen=True)
class BenchCase:
    name: str
    description: str
    make: Callable[[Path, bool], Path | None]  # (folder, quick) -> workload path or None (skip)
    ref_warp_insts_per_s: float | None = None
    ref_cycles_per_s: float | None = None
    target_speedup: float | None = None       # over the reference rate
    metric: str = "warp_insts_per_s"          # which rate the target is about


def _bfs(folder: Path, quick: bool) -> Path | None:
    from accelsim.bench.runner import shared_trace

    return shared_trace("bfs_rodinia31_sm70")


CASES = [
    BenchCase("bfs", "real BFS trace (Rodinia 3.1 graph4096, sm_70, 16 kernels)", _bfs,
              ref_warp_insts_per_s=3_600, target_speedup=20),
    BenchCase("vecadd", "vecadd of 262,144 floats (1,024 x 256 threads, full GPU)",
              lambda d, q: workloads.vecadd(d, n=8192 if q else 262_144),
              ref_warp_insts_per_s=4_400, target_speedup=20),
    BenchCase("copy_float4", "float4 copy of 2.5 MiB (320 x 256 threads, full GPU)",
              lambda d, q: workloads.copy_float4(d, grid=32 if q else 320,
                                                 total_bytes=2**18 if q else 5 * 2**19),
              ref_warp_insts_per_s=2_000, target_speedup=20),
    BenchCase("compute_bound", "FP32-bound kernel (320 x 256 threads, 256 FFMA per warp)",
              lambda d, q: workloads.compute_bound(d, grid=8 if q else 320, ffmas=32 if q else 256)),
    BenchCase("pointer_chase", "1-thread dependent-load chain (~136 K cycles)",
              lambda d, q: workloads.pointer_chase(d, steps=20 if q else 395),
              ref_cycles_per_s=136_000 / 47.0, target_speedup=500, metric="cycles_per_s"),
]



def _ptx(name: str):
    def make(folder: Path, quick: bool) -> Path:
        from accelsim.bench.ptx_cases import write_case

        return write_case(folder, quick, name)
    return make


# PTX mode: the kernel is emulated while it is timed (emulation_share in the
# row; ptx_peak_rss_mb is the PTX run's own peak). The *_vs_sass and bfs rows
# also replay the same launches from their saved trace (sass_warp_insts_per_s,
# ptx_vs_sass_rate: the goal is >= 0.5); matmul_long is matmul with
# four times the kernel length on the same grid (peak RSS must not follow).
CASES += [
    BenchCase("ptx_matmul", "PTX mode: tiled matmul 256x256 (16x16 tiles), emulation + timing", _ptx("matmul")),
    BenchCase("ptx_matmul_long", "PTX mode: tiled matmul 256x256, k = 1024 (4x the kernel length)",
              _ptx("matmul_long")),
    BenchCase("ptx_matmul_vs_sass", "PTX mode vs its saved trace replayed: tiled matmul 128x128",
              _ptx("matmul_vs_sass")),
    BenchCase("ptx_bfs", "PTX mode vs its saved trace replayed: frontier BFS, 20,000 nodes, one launch per level",
              _ptx("bfs")),
]

RSS_LIMIT_MB = 150
