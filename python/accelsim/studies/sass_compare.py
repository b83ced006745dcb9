"""The PTX-mode example kernels (``accelsim.ptx.EXAMPLES``) run with lowered
and SASS-guided records side by side: what the real SASS changes in
instruction counts and cycles (docs/results.md).

    python -m accelsim.studies.sass_compare [--config QV100] [--arch 70]

prints the table in Markdown. Inputs match the tests (tests/test_ptx_*.py);
every case returns its outputs so the two modes can be checked equal."""
from __future__ import annotations

import argparse

import numpy as np

from accelsim.errors import PtxError
from accelsim.ptx import EXAMPLES, Device, Module
from accelsim.studies.graphs import random_graph

__all__ = ["CASES", "run_case", "run_every_case", "compare", "markdown"]

i32, f32 = np.int32, np.float32


def _ints(rng, shape, lo=-4, hi=5):
    return rng.integers(lo, hi, shape).astype(np.float32)


def _vector_add(dev, m):
    n, rng = 1000, np.random.default_rng(1)
    a, b = rng.standard_normal(n).astype(f32), rng.standard_normal(n).astype(f32)
    da, db, dc = dev.to_device(a), dev.to_device(b), dev.zeros(n, f32)
    m["basic"].get_function("vectorAdd")[(n + 127) // 128, 128](da, db, dc, i32(n))
    return [dc]


def _saxpy(dev, m):
    n = 777
    dx, dy = dev.to_device(np.arange(n, dtype=f32) * 0.5), dev.to_device(np.linspace(-3, 3, n, dtype=f32))
    m["basic"].get_function("saxpy")[(n + 255) // 256, 256](f32(2.5), dx, dy, i32(n))
    return [dy]


def _reduce_shared(dev, m):
    n = 2000
    x = np.random.default_rng(2).integers(-50, 50, n).astype(f32)
    blocks = (n + 255) // 256
    dx, dout = dev.to_device(x), dev.zeros(blocks, f32)
    m["basic"].get_function("reduce_shared")[blocks, 256](dx, dout, i32(n))
    return [dout]


def _reduce_shfl(dev, m):
    n = 3000
    dx, dout = dev.to_device(np.random.default_rng(3).integers(-1000, 1000, n).astype(i32)), dev.zeros(1, i32)
    m["basic"].get_function("reduce_shfl")[(n + 255) // 256, 256](dx, dout, i32(n))
    return [dout]


def _transpose(name):
    def case(dev, m):
        h, w = 70, 45
        din, dout = dev.to_device(np.arange(h * w, dtype=f32).reshape(h, w)), dev.zeros((w, h), f32)
        m["basic"].get_function(name)[((w + 31) // 32, (h + 31) // 32), (32, 8)](din, dout, i32(w), i32(h))
        return [dout]
    return case


def _matmul_tiled(dev, m):
    mm, n, k = 40, 36, 50
    rng = np.random.default_rng(4)
    dA, dB = dev.to_device(_ints(rng, (mm, k), -8, 8)), dev.to_device(_ints(rng, (k, n), -8, 8))
    dC = dev.zeros((mm, n), f32)
    m["basic"].get_function("matmul_tiled")[((n + 15) // 16, (mm + 15) // 16), (16, 16)](
        dA, dB, dC, i32(mm), i32(n), i32(k))
    return [dC]


def _histogram(dev, m):
    n = 5000
    dd, bins = dev.to_device(np.random.default_rng(5).integers(0, 256, n).astype(np.uint8)), dev.zeros(256, np.uint32)
    m["basic"].get_function("histogram")[8, 128](dd, bins, i32(n))
    return [bins]


def _nested_divergent(dev, m):
    n = 300
    dv, dout = dev.to_device(np.random.default_rng(6).integers(-40, 40, n).astype(i32)), dev.zeros(n, i32)
    m["basic"].get_function("nested_divergent")[(n + 127) // 128, 128](dv, dout, i32(n))
    return [dout]


def _dyn_shared_struct(dev, m):
    n, block = 500, 128
    affine = np.array([(2.0, 1.0, 5, 0)], dtype=[("scale", "<f4"), ("shift", "<f4"), ("stride", "<i4"),
                                                   ("pad", "<i4")])[0]
    dx, dout = dev.to_device(np.arange(n, dtype=f32)), dev.zeros(n, f32)
    m["basic"].get_function("dyn_shared_struct")[(n + block - 1) // block, block, 0, block * 4](
        dx, dout, affine, i32(n))
    return [dout]


def _scan(dev, m):
    n, threads = 500, 256
    dx, dy = dev.to_device(np.random.default_rng(10).integers(-100, 100, n).astype(i32)), dev.zeros(n, i32)
    m["more"].get_function("scan_blelloch")[1, threads, 0, 2 * threads * 4](dx, dy, i32(n))
    return [dy]


def _stencil(dev, m):
    h, w = 37, 53
    din, dout = dev.to_device(_ints(np.random.default_rng(11), (h, w))), dev.zeros((h, w), f32)
    m["more"].get_function("stencil2d")[((w + 15) // 16, (h + 15) // 16), (16, 16)](
        din, dout, i32(w), i32(h), f32(0.5), f32(0.125))
    return [dout]


def _gemm(dev, m):
    ni, nj, nk = 33, 29, 41
    rng = np.random.default_rng(12)
    dA, dB, dC = (dev.to_device(_ints(rng, s)) for s in ((ni, nk), (nk, nj), (ni, nj)))
    m["more"].get_function("gemm")[((nj + 15) // 16, (ni + 15) // 16), (16, 16)](
        i32(ni), i32(nj), i32(nk), f32(2.0), f32(3.0), dA, dB, dC)
    return [dC]


def _atax_bicg(dev, m):
    nx, ny = 45, 38
    rng = np.random.default_rng(13)
    dA = dev.to_device(_ints(rng, (nx, ny)))
    x, r, p = _ints(rng, ny), _ints(rng, nx), _ints(rng, ny)
    dx, dtmp, dy = dev.to_device(x), dev.zeros(nx, f32), dev.zeros(ny, f32)
    k = m["more"].get_function
    k("atax1")[(nx + 63) // 64, 64](dA, dx, dtmp, i32(nx), i32(ny))
    k("atax2")[(ny + 63) // 64, 64](dA, dtmp, dy, i32(nx), i32(ny))
    dr, dp, ds, dq = dev.to_device(r), dev.to_device(p), dev.zeros(ny, f32), dev.zeros(nx, f32)
    k("bicg1")[(ny + 63) // 64, 64, 1](dA, dr, ds, i32(nx), i32(ny))
    k("bicg2")[(nx + 63) // 64, 64, 2](dA, dp, dq, i32(nx), i32(ny))
    return [dy, ds, dq]


def _mvt(dev, m):
    n, rng = 40, np.random.default_rng(14)
    dM = dev.to_device(_ints(rng, (n, n)))
    d1, d2, dy1, dy2 = (dev.to_device(_ints(rng, n)) for _ in range(4))
    m["more"].get_function("mvt1")[1, 64](dM, d1, dy1, i32(n))
    m["more"].get_function("mvt2")[1, 64](dM, d2, dy2, i32(n))
    return [d1, d2]


def _mm2(dev, m):
    ni, nj, nk, nl = 20, 24, 18, 22
    rng = np.random.default_rng(14)
    dA, dB, dC, dD = (dev.to_device(_ints(rng, s)) for s in ((ni, nk), (nk, nj), (nj, nl), (ni, nl)))
    dtmp = dev.zeros((ni, nj), f32)
    m["more"].get_function("mm2_1")[((nj + 15) // 16, (ni + 15) // 16), (16, 16)](
        i32(ni), i32(nj), i32(nk), f32(2.0), dA, dB, dtmp)
    m["more"].get_function("mm2_2")[((nl + 15) // 16, (ni + 15) // 16), (16, 16)](
        i32(ni), i32(nl), i32(nj), f32(3.0), dtmp, dC, dD)
    return [dD]


def _bfs(dev, m):
    n = 400
    row, col = random_graph(n, 3, 15)
    dist0 = np.full(n, -1, i32)
    dist0[0] = 0
    drow, dcol, ddist = dev.to_device(row), dev.to_device(col), dev.to_device(dist0)
    fa, fb, cnt = dev.zeros(n, i32), dev.zeros(n, i32), dev.zeros(1, i32)
    nfront, level, k = 1, 0, m["more"].get_function("bfs_level")
    while nfront:
        if level > n:
            raise PtxError(f"bfs_level still finds new nodes after {n} levels on {n} nodes")
        cnt.copy_from_host(np.zeros(1, i32))
        k[(nfront + 127) // 128, 128](drow, dcol, ddist, fa, i32(nfront), fb, cnt, i32(level))
        nfront = int(cnt.copy_to_host()[0])
        dev.synchronize()
        fa, fb, level = fb, fa, level + 1
    return [ddist]


def _bfs_rodinia(dev, m):
    """One level of the two-kernel BFS (examples/bfs_rodinia.cu) from node 0."""
    n = 300
    row, col = random_graph(n, 3, 15)
    nodes = np.stack([row[:-1], np.diff(row)], axis=1).astype(i32)
    frontier = np.zeros(n, np.uint8)
    frontier[0] = 1
    cost = np.full(n, -1, i32)
    cost[0] = 0
    d_nodes, d_adj, d_front = dev.to_device(nodes), dev.to_device(col), dev.to_device(frontier)
    d_next, d_seen, d_cost = dev.zeros(n, np.uint8), dev.to_device(frontier.copy()), dev.to_device(cost)
    again, k = dev.zeros(1, np.uint8), m["bfs_rodinia"].get_function
    k("bfs_expand")[(n + 511) // 512, 512](d_nodes, d_adj, d_front, d_next, d_seen, d_cost, i32(n))
    k("bfs_advance")[(n + 511) // 512, 512](d_front, d_next, d_seen, again, i32(n))
    return [d_cost, d_front, again]


def _sincos(dev, m):
    x = np.concatenate([np.linspace(-10, 10, 50), [3e9, -7.5e10, 1e15, 123456789012.5, 0.0, -0.0]])
    dx, ds, dc = dev.to_device(x), dev.zeros(len(x), np.float64), dev.zeros(len(x), np.float64)
    m["more"].get_function("sincos_f64")[1, 64](dx, ds, dc, i32(len(x)))
    return [ds, dc]


def _tex(dev, m):
    n = 300
    dx = dev.to_device(np.linspace(-5, 5, n).astype(f32))
    dout = dev.zeros(n + 10, f32)
    m["more"].get_function("tex_read")[(n + 10 + 63) // 64, 64](dev.texture_object(dx), dout, i32(n + 10))
    return [dout]


def _lock(dev, m):
    lock, counter = dev.zeros(1, i32), dev.zeros(1, i32)
    m["lock"].get_function("locked_count")[3, 64](lock, counter)
    return [counter, lock]


CASES = {
    "vectorAdd": _vector_add, "saxpy": _saxpy, "reduce_shared": _reduce_shared, "reduce_shfl": _reduce_shfl,
    "transpose_naive": _transpose("transpose_naive"), "transpose_padded": _transpose("transpose_padded"),
    "matmul_tiled": _matmul_tiled, "histogram": _histogram, "nested_divergent": _nested_divergent,
    "dyn_shared_struct": _dyn_shared_struct, "scan_blelloch": _scan, "stencil2d": _stencil, "gemm": _gemm,
    "atax+bicg": _atax_bicg, "mvt": _mvt, "2mm": _mm2, "bfs": _bfs, "bfs_rodinia": _bfs_rodinia,
    "sincos_f64": _sincos, "tex_read": _tex, "locked_count": _lock,
}


def modules() -> dict[str, Module]:
    return {name: Module(EXAMPLES / f"{name}.ptx") for name in ("basic", "more", "lock", "bfs_rodinia")}


def run_every_case(config: str, records: str, mods=None, **device_args) -> tuple[list, list[dict]]:
    """Every case on one Device (the every-config check): (outputs as host
    arrays, one row per launch: kernel, warp_instructions, cycles, regs)."""
    dev = Device(config, records=records, **device_args)
    mods = mods or modules()
    outs = [o for name in CASES for o in CASES[name](dev, mods)]
    host = [o.copy_to_host() for o in outs]  # runs what is still queued
    rows = [{"kernel": str(k["name"]), "warp_instructions": int(k["warp_instructions"]), "cycles": int(k["cycles"]),
             "regs": int(d["regs"])}
            for res in dev.results for (_, k), d in zip(res.kernels.iterrows(), res.extra.get("launches", []))]
    return host, rows


def run_case(name: str, records: str, config: str = "QV100", arch: int = 70, mods=None, regs=None):
    """(outputs as host arrays, {kernel: summed columns}) of one case."""
    dev = Device(config, arch=arch, records=records, regs_per_thread=regs)
    outs = [o.copy_to_host() for o in CASES[name](dev, mods or modules())]
    dev.synchronize()
    per: dict[str, dict] = {}
    for res in dev.results:
        for _, k in res.kernels.iterrows():
            row = per.setdefault(k["name"], {"launches": 0, "warp_instructions": 0, "cycles": 0})
            row["launches"] += 1
            row["warp_instructions"] += int(k["warp_instructions"])
            row["cycles"] += int(k["cycles"])
            row["ctas_per_sm"] = int(k["ctas_per_sm"])
    regs = {d["kernel"]: d["regs"] for res in dev.results for d in res.extra.get("launches", [])}
    for kname, row in per.items():
        row["regs"] = regs.get(kname)
    return outs, per


def compare(config: str = "QV100", arch: int = 70, cases=None) -> list[dict]:
    mods = modules()
    rows = []
    for name in cases or CASES:
        lo_out, lo = run_case(name, "lowered", config, arch, mods, regs=32)  # PTX's fixed count
        sg_out, sg = run_case(name, "sass", config, arch, mods)
        _, lp = run_case(name, "lowered", config, arch, mods, regs="ptxas")  # occupancy alone
        same = all(np.array_equal(a, b, equal_nan=True) for a, b in zip(lo_out, sg_out))
        for kname in lo:
            rows.append({"case": name, "kernel": kname, "same_results": same, "launches": lo[kname]["launches"],
                         "lowered_insts": lo[kname]["warp_instructions"], "sass_insts": sg[kname]["warp_instructions"],
                         "lowered_cycles": lo[kname]["cycles"], "sass_cycles": sg[kname]["cycles"],
                         "lowered_ptxas_regs_cycles": lp[kname]["cycles"],
                         "lowered_regs": lo[kname]["regs"], "sass_regs": sg[kname]["regs"],
                         "lowered_ctas_per_sm": lo[kname]["ctas_per_sm"], "sass_ctas_per_sm": sg[kname]["ctas_per_sm"]})
    return rows


def markdown(rows: list[dict]) -> str:
    out = ["| kernel | launches | warp insts lowered | SASS-guided | ratio | cycles lowered "
           "| lowered, ptxas regs | SASS-guided | ratio | regs (lowered → ptxas) | CTAs/SM | same results |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|"]
    for r in rows:
        out.append(f"| {r['kernel']} | {r['launches']} | {r['lowered_insts']} | {r['sass_insts']} "
                   f"| {r['sass_insts'] / max(1, r['lowered_insts']):.2f} | {r['lowered_cycles']} "
                   f"| {r['lowered_ptxas_regs_cycles']} | {r['sass_cycles']} "
                   f"| {r['sass_cycles'] / max(1, r['lowered_cycles']):.2f} | {r['lowered_regs']} → {r['sass_regs']} "
                   f"| {r['lowered_ctas_per_sm']} → {r['sass_ctas_per_sm']} | {'yes' if r['same_results'] else 'NO'} |")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default="QV100")
    ap.add_argument("--arch", type=int, default=70)
    args = ap.parse_args(argv)
    print(markdown(compare(args.config, args.arch)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
