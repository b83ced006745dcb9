"""Measurements behind docs/sampling.md: kernel and intra-kernel sampling
against full simulation, and one workload split over processes, on
generated decode workloads of 2,000+ kernels and 10^8+ warp instructions.

Every step stores its numbers under DIR (JSON), so steps run one at a time
(each is long: a full simulation takes tens of minutes here) and `report`
prints the tables:

    python scripts/sampling_acceptance.py generate --dir D
    python scripts/sampling_acceptance.py full --dir D          # serial, warm caches
    python scripts/sampling_acceptance.py kernels --dir D       # sampled, several seeds
    python scripts/sampling_acceptance.py flush --dir D         # serial with flush
    python scripts/sampling_acceptance.py split --dir D         # 2 processes / Dask, flush and warm
    python scripts/sampling_acceptance.py intra --dir D         # long single kernels
    python scripts/sampling_acceptance.py huge --dir D          # 10^9-instruction xz trace: RSS
    python scripts/sampling_acceptance.py report --dir D
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

DECODE = dict(hidden=768, heads=12, ffn=3072, context=256, steps=39)  # 2,028 kernels, 1.14 x 10^8 warp insts
HUGE = dict(hidden=2048, heads=16, ffn=8192, context=1024, steps=48, layers=8)  # about 1.05 x 10^9
CONFIG = "QV100"


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _timed(fn, *args, **kwargs):
    t, c = time.perf_counter(), _cpu()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t, _cpu() - c


def _save(d: Path, name: str, data) -> None:
    (d / f"{name}.json").write_text(json.dumps(data, indent=1, default=str))


def _load(d: Path, name: str):
    return json.loads((d / f"{name}.json").read_text())


def generate(d: Path, spec: dict, name: str) -> dict:
    from accelsim.tracegen.llm import DecodeSpec, write_decode_workload

    g, wall, cpu = _timed(write_decode_workload, d / name, DecodeSpec(**spec))
    info = {"kernels": g.kernels, "warp_instructions": g.total_warp_instructions, "wall_s": wall,
            "bytes": sum(f.stat().st_size for f in (d / name).iterdir()), "spec": spec,
            "per_kernel": g.warp_instructions}
    _save(d, f"generate_{name}", info)
    return info


def _rows(r) -> dict:
    k = r.kernels
    return {"total_cycles": int(r.total_cycles), "ids": k["id"].tolist(), "cycles": k["cycles"].tolist(),
            "status": k["status"].tolist(), "warp_instructions": int(r.warp_instructions)}


def full(d: Path, flush: bool = False) -> None:
    import accelsim

    r, wall, cpu = _timed(accelsim.Simulator(CONFIG).run, d / "decode", progress=False, flush=flush)
    _save(d, "flush" if flush else "full", {**_rows(r), "wall_s": wall, "cpu_s": cpu, "load": os.getloadavg()})


def kernels(d: Path, seeds: list[int], target: float | None) -> None:
    import accelsim

    truth = _load(d, "full")
    out = []
    for seed in seeds:
        opts = accelsim.KernelSampling(seed=seed, target_error=target)
        r, wall, cpu = _timed(accelsim.Simulator(CONFIG).run, d / "decode", progress=False, sample=opts)
        k = r.kernels
        err = [abs(c / t - 1) for c, t in zip(k["cycles"], truth["cycles"])]
        proj = [i for i, s in enumerate(k["status"]) if s == "projected"]
        info = r.extra["sampling"]
        out.append({"seed": seed, "target": target, "wall_s": wall, "cpu_s": cpu, "load": os.getloadavg(),
                    "speedup_cpu": truth["cpu_s"] / cpu, "speedup_wall": truth["wall_s"] / wall,
                    "total_error": r.total_cycles / truth["total_cycles"] - 1,
                    "total_bound": info["total_error_bound"],
                    "coverage": sum(err[i] <= k["error_bound"][i] for i in proj) / max(1, len(proj)),
                    "projected": len(proj), "simulated": info["simulated_kernels"],
                    "instruction_fraction": info["simulated_instruction_fraction"],
                    "clusters": len(info["clusters"]), "rounds": len(info["rounds"]),
                    "profile_s": info["profile_s"],
                    "median_kernel_error": sorted(err[i] for i in proj)[len(proj) // 2]})
        print(json.dumps(out[-1], default=str))
    _save(d, f"kernels_{target}", out)


def _idle_speedup(serial_cpu: float, units: list[dict]) -> float:
    """What 2 workers would give with a core each: the serial run's CPU time
    over the busiest worker's (its units' CPU time, start-up included)."""
    per_worker: dict = {}
    for u in units:
        per_worker[u["worker"]] = per_worker.get(u["worker"], 0.0) + float(u.get("cpu_s") or 0.0)
    return serial_cpu / max(per_worker.values()) if per_worker else 0.0


def split(d: Path, engine: str) -> None:
    import accelsim
    sim = accelsim.Simulator(CONFIG)
    flush_truth, warm_truth = _load(d, "flush"), _load(d, "full")
    out = {"engine": engine, "load_before": os.getloadavg()}
    r, wall, cpu = _timed(sim.run, d / "decode", progress=False, flush=True, engine=engine, workers=2)
    rows = _rows(r)
    out["flush"] = {"wall_s": wall, "speedup_wall": flush_truth["wall_s"] / wall,
                    "speedup_idle_estimate": _idle_speedup(flush_truth["cpu_s"], r.extra["units"]),
                    "identical_cycles": rows["cycles"] == flush_truth["cycles"]
                    and rows["total_cycles"] == flush_truth["total_cycles"], "units": r.extra["units"]}
    r, wall, cpu = _timed(sim.run, d / "decode", progress=False, engine=engine, workers=2)
    out["warm"] = {"wall_s": wall, "speedup_wall": warm_truth["wall_s"] / wall,
                   "speedup_idle_estimate": _idle_speedup(warm_truth["cpu_s"], r.extra["units"]),
                   "total_error": r.total_cycles / warm_truth["total_cycles"] - 1}
    out["load_after"] = os.getloadavg()
    print(json.dumps(out, default=str))
    _save(d, f"split_{engine}", out)


def _long_kernels(d: Path) -> dict:
    """Single kernels of many CTA waves on a QV100 (80 SMs): a skinny GEMM
    (5 CTAs per SM: 50 waves), a residual add over 64 M elements (8 CTAs
    per SM: 50 waves), a layer-norm over 128 K short rows (32 per SM: 50
    waves) and a decode attention of 200 sequences x 64 heads (8 per SM: 20
    waves, sequence lengths varying)."""
    from accelsim.tracegen.llm import write_kernels
    from accelsim.tracegen.llm.attention import attention
    from accelsim.tracegen.llm.matmul import gemm
    from accelsim.tracegen.llm.rows import layernorm, residual_add

    base = 0x7F0000000000
    cases = {
        "gemm_20k_ctas": [gemm(8, 512, 16 * 400 * 50, base, base + (1 << 36), base + (2 << 36))],
        "residual_add_64m": [residual_add(64 << 20, base, base + (1 << 36), base + (2 << 36))],
        "layernorm_128k_rows": [layernorm(128_000, 256, base, base + (1 << 30), base + (2 << 30),
                                          base + (3 << 30))],
        "attention_200x64": [attention(200, 64, 64, 512, [96 + (37 * i) % 64 for i in range(200)], base,
                                       base + (1 << 36), base + (2 << 36), base + (3 << 36))],
    }
    return {name: write_kernels(d / "long" / name, ks).path for name, ks in cases.items()}


def intra(d: Path) -> None:
    import accelsim

    sim = accelsim.Simulator(CONFIG)
    out = []
    for name, path in _long_kernels(d).items():
        f, fwall, fcpu = _timed(sim.run, path, progress=False)
        s, swall, scpu = _timed(sim.run, path, progress=False, sample=accelsim.IntraKernelSampling())
        k, t = s.kernels.iloc[0], f.kernels.iloc[0]
        out.append({"kernel": name, "ctas": int(t["ctas"]), "waves": int(t["ctas"]) / (int(t["ctas_per_sm"]) * 80),
                    "status": k["status"], "speedup_cpu": fcpu / scpu, "speedup_wall": fwall / swall,
                    "error": int(k["cycles"]) / int(t["cycles"]) - 1,
                    "bound": int(k["cycles_bound"]) / int(t["cycles"]),
                    "simulated_ctas": int(k["simulated_ctas"]), "full_cpu_s": fcpu, "sampled_cpu_s": scpu,
                    "warp_instructions": int(t["warp_instructions"])})
        print(json.dumps(out[-1], default=str))
    _save(d, "intra", out)


def huge(d: Path) -> None:
    """Generates the 10^9-instruction trace (once), then runs kernel sampling
    on it in a fresh process and records that process's peak RSS."""
    if not (d / "huge" / "kernelslist.g").is_file():
        generate(d, HUGE, "huge")
    code = ("import accelsim, resource, json, sys, time; t = time.perf_counter(); "
            f"r = accelsim.Simulator({CONFIG!r}).run(sys.argv[1], progress=False, "
            "sample=accelsim.KernelSampling()); "
            "print(json.dumps({'rss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "
            "'wall_s': time.perf_counter() - t, 'total_cycles': r.total_cycles, "
            "'bound': r.extra['sampling']['total_error_bound'], "
            "'simulated': r.extra['sampling']['simulated_kernels'], 'kernels': r.num_kernels}))")
    proc = subprocess.run([sys.executable, "-c", code, str(d / "huge")], capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(proc.stderr)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["load"] = os.getloadavg()
    print(json.dumps(out))
    _save(d, "huge_run", out)


def _table(rows: list[dict], cols: list[str]) -> str:
    def fmt(v):
        return f"{v:.4g}" if isinstance(v, float) else str(v)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(fmt(r.get(c, "")) for c in cols) + " |" for r in rows]
    return "\n".join(lines)


def report(d: Path) -> None:
    """Markdown tables of every step that has run."""
    parts = []
    if (d / "generate_decode.json").is_file():
        g = _load(d, "generate_decode")
        parts.append(f"workload: {g['kernels']} kernels, {g['warp_instructions']:,} warp instructions, "
                     f"{g['bytes'] / 1e6:.0f} MB of xz, written in {g['wall_s']:.0f} s")
    if (d / "full.json").is_file():
        f = _load(d, "full")
        parts.append(f"full simulation: {f['total_cycles']:,} cycles, {f['wall_s']:.0f} s wall, "
                     f"{f['cpu_s']:.0f} s CPU (load {f['load']})")
    for t in sorted(d.glob("kernels_*.json")):
        parts.append(_table(json.loads(t.read_text()), ["seed", "target", "speedup_cpu", "speedup_wall",
                                                         "total_error", "total_bound", "coverage", "simulated",
                                                         "instruction_fraction", "clusters", "rounds",
                                                         "median_kernel_error"]))
    if (d / "intra.json").is_file():
        parts.append(_table(_load(d, "intra"), ["kernel", "ctas", "waves", "status", "speedup_cpu", "error",
                                               "bound", "simulated_ctas"]))
    for t in sorted(d.glob("split_*.json")):
        s = json.loads(t.read_text())
        parts.append(f"split ({s['engine']}, 2 workers, load {s['load_before']} -> {s['load_after']}): "
                     f"flush {s['flush']['speedup_wall']:.2f}x, identical {s['flush']['identical_cycles']}; "
                     f"warm {s['warm']['speedup_wall']:.2f}x, total error {100 * s['warm']['total_error']:.3f}%")
    if (d / "huge_run.json").is_file():
        h = _load(d, "huge_run")
        parts.append(f"10^9 trace, kernel sampling: peak RSS {h['rss_mb']:.0f} MB, {h['wall_s']:.0f} s")
    print("\n\n".join(parts))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("step", choices=["generate", "full", "flush", "kernels", "split", "intra", "huge", "report"])
    p.add_argument("--dir", required=True, type=Path)
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--target", type=float, default=None)
    p.add_argument("--engine", default="process")
    a = p.parse_args(argv)
    a.dir.mkdir(parents=True, exist_ok=True)
    if a.step == "generate":
        print(json.dumps({k: v for k, v in generate(a.dir, DECODE, "decode").items() if k != "per_kernel"}))
    elif a.step in ("full", "flush"):
        full(a.dir, flush=a.step == "flush")
    elif a.step == "kernels":
        kernels(a.dir, [int(s) for s in a.seeds.split(",")], a.target)
    elif a.step == "split":
        split(a.dir, a.engine)
    elif a.step == "intra":
        intra(a.dir)
    elif a.step == "huge":
        huge(a.dir)
    else:
        report(a.dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
