"""The PTX-mode cases of ``accelsim bench``: a tiled matrix multiply and a
frontier BFS run through emulation + timing, the same launches emulated
alone (the split of wall time between emulation and timing), and, where the
spec asks for it, the same kernels saved as a trace and replayed through the
SASS path (the rate PTX mode is compared with). The peak RSS of the PTX run
is read right after it, before anything else runs in the process."""
from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from accelsim.bench.memory import status_mb
from accelsim.errors import PtxError
from accelsim.ptx import EXAMPLES
from accelsim.studies.graphs import random_graph

SUFFIX = ".ptxbench.json"

# name -> (full spec, quick spec)
SPECS = {
    "matmul": ({"kernel": "matmul", "n": 256, "k": 256}, {"kernel": "matmul", "n": 64, "k": 64}),
    # the same grid, four times the kernel length: peak RSS must not follow
    "matmul_long": ({"kernel": "matmul", "n": 256, "k": 1024}, {"kernel": "matmul", "n": 64, "k": 256}),
    "matmul_vs_sass": ({"kernel": "matmul", "n": 128, "k": 128, "sass": True},
                       {"kernel": "matmul", "n": 32, "k": 32, "sass": True}),
    "bfs": ({"kernel": "bfs", "nodes": 20000, "degree": 4, "sass": True},
            {"kernel": "bfs", "nodes": 400, "degree": 3, "sass": True}),
}


def write_case(folder: Path, quick: bool, name: str = "matmul") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    spec = folder / (name + SUFFIX)
    spec.write_text(json.dumps(SPECS[name][1 if quick else 0]))
    return spec


# ---- the kernels ---------------------------------------------------------------

def _matmul(spec):
    """Launches (one) of C = A @ B, A n x k, B k x n; a function queueing it."""
    from accelsim.ptx import Module

    n, k = spec["n"], spec["k"]
    mod = Module(EXAMPLES / "basic.ptx")
    rng = np.random.default_rng(0)
    A = rng.integers(-4, 4, (n, k)).astype(np.float32)
    B = rng.integers(-4, 4, (k, n)).astype(np.float32)

    def levels(dev):
        dA, dB, dC = dev.to_device(A), dev.to_device(B), dev.zeros((n, n), np.float32)
        mod.get_function("matmul_tiled")[(n // 16, n // 16), (16, 16)](
            dA, dB, dC, np.int32(n), np.int32(n), np.int32(k))
        yield None
    return levels


def _bfs(spec):
    """One bfs_level launch per level; the next frontier's size is read back
    between levels (as a CUDA host loop does)."""
    from accelsim.ptx import Module

    n = spec["nodes"]
    row, col = random_graph(n, spec["degree"], 15)
    mod = Module(EXAMPLES / "more.ptx")

    def levels(dev):
        dist = np.full(n, -1, np.int32)
        dist[0] = 0
        drow, dcol, ddist = dev.to_device(row), dev.to_device(col), dev.to_device(dist)
        fa, fb, cnt = dev.zeros(n, np.int32), dev.zeros(n, np.int32), dev.zeros(1, np.int32)
        nfront, level = 1, 0
        k = mod.get_function("bfs_level")
        while nfront:
            if level > n:  # a BFS has at most n levels: never loop on a broken kernel
                raise PtxError(f"bfs_level still finds new nodes after {n} levels on {n} nodes")
            cnt.copy_from_host(np.zeros(1, np.int32))
            k[(nfront + 127) // 128, 128](drow, dcol, ddist, fa, np.int32(nfront), fb, cnt, np.int32(level))
            yield cnt
            nfront = int(cnt.copy_to_host()[0])
            fa, fb, level = fb, fa, level + 1
    return levels


# ---- the three ways of running them -----------------------------------------

def _timed(levels, config):
    """PTX mode, emulation + timing: (result over all levels, wall seconds)."""
    from accelsim.ptx import Device

    dev = Device(config)
    wall, results = 0.0, []
    for _ in levels(dev):
        t = time.perf_counter()
        results.append(dev.synchronize())
        wall += time.perf_counter() - t
    res = SimpleNamespace(total_cycles=sum(int(r.total_cycles) for r in results),
                          warp_instructions=sum(int(r.warp_instructions) for r in results),
                          num_kernels=sum(int(r.num_kernels) for r in results),
                          completed=all(r.completed for r in results))
    return res, wall, dev.stream_stats


def _emulated(levels, config) -> float:
    """The same launches emulated alone, block by block: seconds."""
    from accelsim import _core
    from accelsim.ptx import Device
    from accelsim.ptx._tables import tables

    from accelsim.ptx.save import apply_copy

    dev = Device(config)
    spent = 0.0
    for _ in levels(dev):
        queued, dev._pending = dev._pending, []
        for i, item in enumerate(queued):
            if "copy_bytes" in item:  # its bytes move now, in command order (e.g. a counter reset)
                apply_copy(item)
                continue
            blocks = _core.PtxBlocks(tables(), item, dev.arch, dev.regs_per_thread, i + 1)
            t = time.perf_counter()
            while blocks.next_block() is not None:
                pass
            spent += time.perf_counter() - t
    return spent


def _replayed(levels, config) -> dict:
    """Each launch saved as a trace and replayed by the SASS path."""
    from accelsim.ptx import Device
    from accelsim.sim import Simulator

    dev = Device(config)
    sim = Simulator(config)
    wall, insts, cycles = 0.0, 0, 0
    with tempfile.TemporaryDirectory(prefix="accelsim-ptxbench-") as tmp:
        for i, _ in enumerate(levels(dev)):
            klist = dev.save_trace(Path(tmp) / f"level{i}")
            t = time.perf_counter()
            r = sim.run(klist)
            wall += time.perf_counter() - t
            insts += int(r.warp_instructions)
            cycles += int(r.total_cycles)
    return {"sass_wall_s": wall, "sass_warp_insts": insts, "sass_cycles": cycles,
            "sass_warp_insts_per_s": insts / wall if wall > 0 else None}


def run_case(spec_path: str, config) -> tuple[object, float, float, dict]:
    """(result, wall seconds of emulation + timing, seconds of emulation
    alone, extra row fields: PTX-run peak RSS, record buffer figures and,
    for specs with "sass", the replay's rate and the PTX / SASS ratio)."""
    spec = json.loads(Path(spec_path).read_text())
    levels = (_bfs if spec["kernel"] == "bfs" else _matmul)(spec)
    res, wall, stream = _timed(levels, config)
    extra = {"ptx_peak_rss_mb": status_mb("VmHWM"), **stream, "spec": spec}
    emu = _emulated(levels, config)
    if spec.get("sass"):
        extra.update(_replayed(levels, config))
        rate = res.warp_instructions / wall if wall > 0 else None
        if rate and extra["sass_warp_insts_per_s"]:
            extra["ptx_vs_sass_rate"] = rate / extra["sass_warp_insts_per_s"]
    return res, wall, emu, extra
