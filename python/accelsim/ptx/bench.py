"""The PTX-mode case of ``accelsim bench``: a tiled matrix multiply run
through emulation + timing, and the same launch emulated alone, so the
report can split wall time between emulation and timing."""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

SUFFIX = ".ptxbench.json"


def write_case(folder: Path, quick: bool) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    spec = folder / ("matmul" + SUFFIX)
    spec.write_text(json.dumps({"kernel": "matmul_tiled", "n": 64 if quick else 256}))
    return spec


def _launch(dev, n: int):
    from accelsim.ptx import Module

    mod = Module(Path(__file__).parent / "examples" / "basic.ptx")
    rng = np.random.default_rng(0)
    A = rng.integers(-4, 4, (n, n)).astype(np.float32)
    B = rng.integers(-4, 4, (n, n)).astype(np.float32)
    dA, dB, dC = dev.to_device(A), dev.to_device(B), dev.zeros((n, n), np.float32)
    mod.get_function("matmul_tiled")[(n // 16, n // 16), (16, 16)](dA, dB, dC, np.int32(n), np.int32(n),
                                                                     np.int32(n))


def run_case(spec_path: str, config) -> tuple[object, float, float]:
    """(SimResult, wall seconds of emulation + timing, seconds of emulation alone)."""
    from accelsim import _core
    from accelsim.ptx import Device
    from accelsim.ptx._tables import tables

    n = json.loads(Path(spec_path).read_text())["n"]
    dev = Device(config)
    _launch(dev, n)
    t = time.perf_counter()
    res = dev.synchronize()
    wall = time.perf_counter() - t
    dev2 = Device(config)
    _launch(dev2, n)
    launch = next(d for d in dev2._pending if "copy_bytes" not in d)
    blocks = _core.PtxBlocks(tables(), launch, dev2.arch, dev2.regs_per_thread, 1)
    t = time.perf_counter()
    while blocks.next_block() is not None:
        pass
    return res, wall, time.perf_counter() - t
