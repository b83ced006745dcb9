"""Measurements behind docs/sampling.md, "Intra-kernel sampling in PTX mode":
many-wave PTX kernels from Python (accelsim.ptx.Device, the example kernels),
each run in full, sampled, and sampled without warming L2 from the functional
tail, on QV100 (or a QV100 cut to --sms SMs, so that kernels of many waves
stay cheap to run in full). Every case is followed by a short kernel (four waves, never
sampled) that reads the end of the long kernel's output, the data its last
waves (the functional tail, when sampled) left in L2.

    python scripts/ptx_intra_sampling.py [--only NAME] [--sms N] [--waves W] [--out FILE.json]
    python scripts/ptx_intra_sampling.py --records-rate [--sms N] [--waves W]

Per run: wall and CPU seconds (the process's, every thread), each kernel's
cycles, status, bound and CTAs timed, whether the device memory matches the
full run's bit for bit, and the functional tail's wall time (from progress
reports every 50 ms: from the first report with more CTAs done than were
timed to the end of the kernel's run; wall and CPU). Compares nothing itself; prints
one JSON line per run and the table rows.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

import accelsim
from accelsim.ptx import Device, Module

EXAMPLES = Path(accelsim.__file__).parent / "ptx" / "examples"
SMS, WAVES = 80, 40  # QV100's 80 SMs (--sms N: a cut-down QV100), kernels of 40 waves (--waves)
WAVE = SMS * 8       # 8 CTAs of 256 threads each per SM (32 registers)


def _geometry(sms: int, waves: int) -> None:
    global SMS, WAVES, WAVE
    SMS, WAVES, WAVE = sms, waves, sms * 8


def _saxpy(dev, mods, rng):
    n = WAVES * WAVE * 256
    x, y = (dev.to_device(rng.standard_normal(n).astype(np.float32)) for _ in range(2))
    dev.synchronize()  # the copies: the kernels' run starts after them
    mods["basic"].get_function("saxpy")[n // 256, 256](np.float32(1.5), x, y, np.int32(n))
    return y, x


def _stencil(dev, mods, rng):
    w, h = WAVE * 16, WAVES * 16  # WAVES x WAVE CTAs of 16 x 16
    a = dev.to_device(rng.standard_normal(w * h).astype(np.float32))
    b = dev.zeros(w * h, np.float32)
    dev.synchronize()
    mods["more"].get_function("stencil2d")[(w // 16, h // 16), (16, 16)](a, b, np.int32(w), np.int32(h),
                                                                        np.float32(0.5), np.float32(0.125))
    return b, a


def _matmul(dev, mods, rng):
    m, n, k = WAVES * 16, WAVE * 16, 32  # WAVES x WAVE tiles of 16 x 16
    A = dev.to_device(rng.standard_normal(m * k).astype(np.float32))
    B = dev.to_device(rng.standard_normal(k * n).astype(np.float32))
    C = dev.zeros(m * n, np.float32)
    dev.synchronize()
    mods["basic"].get_function("matmul_tiled")[(n // 16, m // 16), (16, 16)](A, B, C, np.int32(m), np.int32(n),
                                                                           np.int32(k))
    return C, B


CASES = {"saxpy": _saxpy, "stencil2d": _stencil, "matmul_tiled": _matmul}


def _config():
    return accelsim.load_config("QV100").with_overrides({"sm_count": SMS})


def run(name: str, sample, mods) -> dict:
    rng = np.random.default_rng(3)
    reports: list = []
    dev = Device(_config(), regs_per_thread=32, sample=sample,
                 on_progress=lambda p: reports.append((time.perf_counter(), time.process_time(), p.ctas_done,
                                                       p.kernels_done)))
    t = 4 * WAVE * 256  # the follow-up kernel: four waves over the end of the output
    z = dev.zeros(t, np.float32)
    out, other = CASES[name](dev, mods, rng)
    reports.clear()
    mods["basic"].get_function("vectorAdd")[t // 256, 256](out[-t:], other[-t:], z, np.int32(t))
    w0, c0 = time.perf_counter(), time.process_time()
    res = dev.synchronize()
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    k = res.kernels
    row = {"case": name, "sms": SMS, "waves": WAVES, "sample": None if sample is None else sample.core_options(),
           "wall_s": wall, "cpu_s": cpu,
           "total_cycles": int(res.total_cycles),
           "kernels": [{c: (v.item() if hasattr(v, "item") else v) for c, v in r.items()} for r in
                       k[["name", "status", "cycles", "cycles_bound", "simulated_ctas", "ctas", "warp_instructions",
                          "l2_read_hits", "l2_read_misses"]].to_dict("records")],
           "memory_sha": _digest(out.copy_to_host(), z.copy_to_host())}
    timed = int(k["simulated_ctas"].iloc[0])
    tail = [(w, c) for w, c, done, kd in reports if kd == 0 and done > timed]
    first_done = [(w, c) for w, c, _, kd in reports if kd >= 1]
    if sample is not None and tail and first_done:
        row["tail_s"] = first_done[0][0] - tail[0][0]
        row["tail_cpu_s"] = first_done[0][1] - tail[0][1]
    return row


def records_rate(name: str, mods, blocks: int = 2000) -> dict:
    """The case's kernel emulated with records kept (PtxBlocks: whole blocks,
    as for a saved trace; the records are copied out as bytes), its first
    ``blocks`` CTAs: seconds per CTA, to set beside the functional tail's."""
    from accelsim import _core
    from accelsim.ptx._tables import tables

    dev = Device(_config(), regs_per_thread=32)
    CASES[name](dev, mods, np.random.default_rng(3))
    launch = next(q.command for q in dev._pending if q.module is not None)
    it = _core.PtxBlocks(tables(), launch, dev.arch, 1)
    t, c = time.perf_counter(), time.process_time()
    for _ in range(blocks):
        it.next_block()
    return {"case": name, "records_s_per_cta": (time.perf_counter() - t) / blocks,
            "records_cpu_s_per_cta": (time.process_time() - c) / blocks, "blocks": blocks}


def _digest(*arrays) -> str:
    import hashlib

    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", action="append", default=None, choices=sorted(CASES))
    p.add_argument("--out", default=None)
    p.add_argument("--sms", type=int, default=80, help="SMs of the QV100 (default 80)")
    p.add_argument("--waves", type=int, default=40, help="the long kernels' waves (default 40)")
    p.add_argument("--records-rate", action="store_true",
                   help="only time emulation with records kept (per CTA) for each case")
    a = p.parse_args(argv)
    _geometry(a.sms, a.waves)
    mods = {"basic": Module(EXAMPLES / "basic.ptx"), "more": Module(EXAMPLES / "more.ptx")}
    if a.records_rate:
        for name in a.only or CASES:
            print(json.dumps(records_rate(name, mods)), flush=True)
        return 0
    rows = []
    for name in a.only or CASES:
        for sample in (None, accelsim.IntraKernelSampling(), accelsim.IntraKernelSampling(warm_tail=False)):
            row = run(name, sample, mods)
            rows.append(row)
            print(json.dumps(row), flush=True)
            if a.out:
                Path(a.out).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
