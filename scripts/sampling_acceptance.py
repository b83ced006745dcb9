"""Measurements behind docs/sampling.md: kernel and intra-kernel sampling
against full simulation, and one workload split over processes, on
generated decode workloads of 2,000+ kernels and 10^8+ warp instructions.

Every step stores its numbers under DIR (JSON) and compares nothing itself,
so steps run one at a time or side by side on a machine with cores to spare
(each is long: a full simulation of the decode workload takes tens of
minutes), and `report` prints the tables:

    python scripts/sampling_acceptance.py generate --dir D [--workload mid]
    python scripts/sampling_acceptance.py full --dir D          # serial, warm caches
    python scripts/sampling_acceptance.py kernels --dir D       # sampled, several seeds
    python scripts/sampling_acceptance.py flush --dir D         # serial with flush
    python scripts/sampling_acceptance.py split --dir D --flush # 2 processes (or --engine dask)
    python scripts/sampling_acceptance.py split --dir D         # the same with warm caches
    python scripts/sampling_acceptance.py intra --dir D [--only NAME]  # long single kernels
    python scripts/sampling_acceptance.py huge --dir D          # 10^9-instruction xz trace: RSS
    python scripts/sampling_acceptance.py report --dir D

`--workload` picks the generated workload (decode: the acceptance size;
mid: a shorter run of the same model, for split runs timed serial against
split within minutes).
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
SIZES = {"decode": DECODE, "mid": {**DECODE, "steps": 8}}  # mid: 416 kernels, about 2.3 x 10^7
HUGE = dict(hidden=2048, heads=16, ffn=8192, context=1024, steps=48, layers=8)  # 5,184 kernels, 1.5 x 10^9
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


def generate(d: Path, spec: dict, name: str, jobs: int = 1) -> dict:
    from accelsim.tracegen.llm import DecodeSpec, write_decode_workload

    g, wall, cpu = _timed(write_decode_workload, d / name, DecodeSpec(**spec), jobs=jobs)
    info = {"name": name, "kernels": g.kernels, "warp_instructions": g.total_warp_instructions, "wall_s": wall,
            "bytes": sum(f.stat().st_size for f in (d / name).iterdir()), "spec": spec,
            "per_kernel": g.warp_instructions}
    _save(d, f"generate_{name}", info)
    return info


def _rows(r) -> dict:
    k = r.kernels
    return {"total_cycles": int(r.total_cycles), "ids": k["id"].tolist(), "cycles": k["cycles"].tolist(),
            "status": k["status"].tolist(), "warp_instructions": int(r.warp_instructions)}


def _name(step: str, workload: str) -> str:
    return step if workload == "decode" else f"{step}_{workload}"


def full(d: Path, workload: str, flush: bool = False) -> None:
    import accelsim

    r, wall, cpu = _timed(accelsim.Simulator(CONFIG).run, d / workload, progress=False, flush=flush)
    _save(d, _name("flush" if flush else "full", workload),
          {**_rows(r), "wall_s": wall, "cpu_s": cpu, "load": os.getloadavg()})


def kernels(d: Path, workload: str, seeds: list[int], target: float | None) -> None:
    import accelsim

    truth = _load(d, _name("full", workload))
    out = []
    for seed in seeds:
        opts = accelsim.KernelSampling(seed=seed, target_error=target)
        r, wall, cpu = _timed(accelsim.Simulator(CONFIG).run, d / workload, progress=False, sample=opts)
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
                    "replayed": sum(x.get("replayed", 0) for x in info["rounds"]),
                    "profile_s": info["profile_s"],
                    "median_kernel_error": sorted(err[i] for i in proj)[len(proj) // 2]})
        print(json.dumps(out[-1], default=str))
        _save(d, _name(f"rows_{target}_{seed}", workload),
              {"truth": truth["cycles"], **{c: k[c].tolist() for c in ("name", "status", "cycles", "error_bound",
                                                                       "cluster", "representative")}})
    _save(d, _name(f"kernels_{target}", workload), out)


def _worker_cpu(units: list[dict]) -> list[float]:
    """CPU time of each worker: the sum over the units it ran."""
    per_worker: dict = {}
    for u in units:
        per_worker[u["worker"]] = per_worker.get(u["worker"], 0.0) + float(u.get("cpu_s") or 0.0)
    return list(per_worker.values())


def split(d: Path, workload: str, engine: str, flush: bool) -> None:
    """One split run (2 workers); report compares it with the serial run."""
    import accelsim

    load = os.getloadavg()
    r, wall, cpu = _timed(accelsim.Simulator(CONFIG).run, d / workload, progress=False, flush=flush,
                          engine=engine, workers=2)
    out = {**_rows(r), "engine": engine, "flush": flush, "wall_s": wall, "load_before": load,
           "load_after": os.getloadavg(), "worker_cpu_s": _worker_cpu(r.extra["units"]),
           "units": r.extra["units"]}
    print(json.dumps({k: v for k, v in out.items() if k not in ("ids", "cycles", "status", "units")}, default=str))
    _save(d, _name(f"split_{engine}_{'flush' if flush else 'warm'}", workload), out)


def _long_kernels() -> dict:
    """Single kernels of about 100 CTA waves on a QV100 (80 SMs): a skinny
    GEMM (5 CTAs per SM), a residual add over 128 M elements (8 per SM), a
    layer-norm over 256 K short rows (32 per SM), and a decode attention of
    600 sequences x 64 heads (8 per SM: 60 waves, sequence lengths varying)."""
    from accelsim.tracegen.llm.attention import attention
    from accelsim.tracegen.llm.matmul import gemm
    from accelsim.tracegen.llm.rows import layernorm, residual_add

    base = 0x7F0000000000
    return {
        "gemm_40k_ctas": lambda: gemm(8, 512, 16 * 400 * 100, base, base + (1 << 36), base + (2 << 36)),
        "residual_add_128m": lambda: residual_add(128 << 20, base, base + (1 << 36), base + (2 << 36)),
        "layernorm_256k_rows": lambda: layernorm(256_000, 256, base, base + (1 << 30), base + (2 << 30),
                                                 base + (3 << 30)),
        "attention_600x64": lambda: attention(600, 64, 64, 512, [96 + (37 * i) % 64 for i in range(600)], base,
                                              base + (1 << 36), base + (2 << 36), base + (3 << 36)),
    }


def _intra_full(d: Path, name: str, sim, path: Path) -> dict:
    """The kernel's full simulation, kept in DIR and reused while the trace
    is unchanged (delete the file after a timing change), so
    that sampler settings can be compared against one full run."""
    key = {"trace_bytes": path.parent.joinpath("kernel-1.traceg.xz").stat().st_size}
    cached = d / f"intra_full_{name}.json"
    if cached.is_file():
        t = json.loads(cached.read_text())
        if t.get("key") == key:
            return t
    f, wall, cpu = _timed(sim.run, path, progress=False)
    row = f.kernels.iloc[0]
    t = {"key": key, "ctas": int(row["ctas"]), "ctas_per_sm": int(row["ctas_per_sm"]), "cycles": int(row["cycles"]),
         "warp_instructions": int(row["warp_instructions"]), "wall_s": wall, "cpu_s": cpu, "load": os.getloadavg()}
    cached.write_text(json.dumps(t, indent=1))
    return t


def intra(d: Path, only: str | None) -> None:
    import accelsim
    from accelsim.tracegen.llm import write_kernels

    sim = accelsim.Simulator(CONFIG)
    for name, make in _long_kernels().items():
        if only and name != only:
            continue
        path = write_kernels(d / "long" / name, [make()]).path
        t = _intra_full(d, name, sim, path)
        s, swall, scpu = _timed(sim.run, path, progress=False, sample=accelsim.IntraKernelSampling())
        k = s.kernels.iloc[0]
        out = {"kernel": name, "ctas": t["ctas"], "waves": t["ctas"] / (t["ctas_per_sm"] * 80),
               "status": k["status"], "speedup_cpu": t["cpu_s"] / scpu, "speedup_wall": t["wall_s"] / swall,
               "error": int(k["cycles"]) / t["cycles"] - 1, "bound": int(k["cycles_bound"]) / t["cycles"],
               "simulated_ctas": int(k["simulated_ctas"]), "full_cpu_s": t["cpu_s"], "sampled_cpu_s": scpu,
               "warp_instructions": t["warp_instructions"], "load": os.getloadavg()}
        print(json.dumps(out, default=str))
        _save(d, f"intra_{name}", out)


def huge(d: Path, jobs: int, engine: str | None) -> None:
    """Generates the 10^9-instruction trace (once, in ``jobs`` processes),
    then runs kernel sampling on it in a fresh process (its windows on
    ``engine``, if given) and records the peak RSS of that process and of its
    largest worker."""
    if not (d / "huge" / "kernelslist.g").is_file():
        generate(d, HUGE, "huge", jobs)
    workers = f", engine={engine!r}, workers={jobs}" if engine else ""
    code = ("import accelsim, resource, json, sys, time; t = time.perf_counter(); "
            f"r = accelsim.Simulator({CONFIG!r}).run(sys.argv[1], progress=False, "
            f"sample=accelsim.KernelSampling(){workers}); "
            "print(json.dumps({'rss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "
            "'worker_rss_mb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, "
            "'wall_s': time.perf_counter() - t, 'total_cycles': r.total_cycles, "
            "'warp_instructions': r.warp_instructions, "
            "'bound': r.extra['sampling']['total_error_bound'], "
            "'simulated': r.extra['sampling']['simulated_kernels'], 'kernels': r.num_kernels}))")
    proc = subprocess.run([sys.executable, "-c", code, str(d / "huge")], capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(proc.stderr)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out.update(load=os.getloadavg(), engine=engine, jobs=jobs)
    print(json.dumps(out))
    _save(d, "huge_run", out)


def _table(rows: list[dict], cols: list[str]) -> str:
    def fmt(v):
        return f"{v:.4g}" if isinstance(v, float) else str(v)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(fmt(r.get(c, "")) for c in cols) + " |" for r in rows]
    return "\n".join(lines)


def _split_rows(d: Path) -> list[dict]:
    """Each split run against its serial run (same workload, same flushing)."""
    rows = []
    for t in sorted(d.glob("split_*.json")):
        s = json.loads(t.read_text())
        workload = t.stem.split("_", 3)[3] if t.stem.count("_") >= 3 else "decode"
        serial_name = _name("flush" if s["flush"] else "full", workload)
        if not (d / f"{serial_name}.json").is_file():
            continue
        serial = _load(d, serial_name)
        rows.append({"workload": workload, "engine": s["engine"], "flush": s["flush"],
                     "serial_wall_s": serial["wall_s"], "split_wall_s": s["wall_s"],
                     "speedup_wall": serial["wall_s"] / s["wall_s"],
                     "speedup_from_cpu": serial["cpu_s"] / max(s["worker_cpu_s"] or [float("inf")]),
                     "identical": s["cycles"] == serial["cycles"] and s["total_cycles"] == serial["total_cycles"],
                     "total_error": s["total_cycles"] / serial["total_cycles"] - 1,
                     "load": f"{s['load_before'][0]:.1f}->{s['load_after'][0]:.1f}"})
    return rows


def report(d: Path) -> None:
    """Markdown tables of every step that has run."""
    parts = []
    for g in sorted(d.glob("generate_*.json")):
        g = json.loads(g.read_text())
        parts.append(f"workload {g.get('name', '')}: {g['kernels']} kernels, {g['warp_instructions']:,} warp "
                     f"instructions, {g['bytes'] / 1e6:.0f} MB of xz, written in {g['wall_s']:.0f} s")
    for f in sorted(d.glob("full*.json")) + sorted(d.glob("flush*.json")):
        r = json.loads(f.read_text())
        parts.append(f"{f.stem}: {r['total_cycles']:,} cycles, {r['wall_s']:.0f} s wall, "
                     f"{r['cpu_s']:.0f} s CPU (load {r['load']})")
    for t in sorted(d.glob("kernels_*.json")):
        parts.append(_table(json.loads(t.read_text()), ["seed", "target", "speedup_cpu", "speedup_wall",
                                                         "total_error", "total_bound", "coverage", "simulated",
                                                         "instruction_fraction", "clusters", "rounds",
                                                         "median_kernel_error"]))
    intra_rows = [json.loads(t.read_text()) for t in sorted(d.glob("intra_*.json"))]
    if intra_rows:
        parts.append(_table(intra_rows, ["kernel", "ctas", "waves", "status", "speedup_cpu", "speedup_wall",
                                         "error", "bound", "simulated_ctas", "full_cpu_s"]))
    split_rows = _split_rows(d)
    if split_rows:
        parts.append(_table(split_rows, ["workload", "engine", "flush", "serial_wall_s", "split_wall_s",
                                         "speedup_wall", "speedup_from_cpu", "identical", "total_error",
                                         "load"]))
    if (d / "huge_run.json").is_file():
        h = _load(d, "huge_run")
        parts.append(f"10^9 trace ({h['kernels']} kernels, {h['warp_instructions']:,} warp instructions), "
                     f"kernel sampling: peak RSS {h['rss_mb']:.0f} MB (largest worker {h['worker_rss_mb']:.0f} MB, "
                     f"engine {h['engine']}), {h['wall_s']:.0f} s")
    print("\n\n".join(parts))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("step", choices=["generate", "full", "flush", "kernels", "split", "intra", "huge", "report"])
    p.add_argument("--dir", required=True, type=Path)
    p.add_argument("--workload", default="decode", choices=sorted(SIZES))
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--target", type=float, default=None)
    p.add_argument("--engine", default="process")
    p.add_argument("--flush", action="store_true", help="split: caches flushed between commands")
    p.add_argument("--only", default=None, help="intra: one long kernel by name")
    p.add_argument("--jobs", type=int, default=1, help="generate, huge: processes writing traces")
    a = p.parse_args(argv)
    a.dir.mkdir(parents=True, exist_ok=True)
    if a.step == "generate":
        info = generate(a.dir, SIZES[a.workload], a.workload, a.jobs)
        print(json.dumps({k: v for k, v in info.items() if k != "per_kernel"}))
    elif a.step in ("full", "flush"):
        full(a.dir, a.workload, flush=a.step == "flush")
    elif a.step == "kernels":
        kernels(a.dir, a.workload, [int(s) for s in a.seeds.split(",")], a.target)
    elif a.step == "split":
        split(a.dir, a.workload, a.engine, a.flush)
    elif a.step == "intra":
        intra(a.dir, a.only)
    elif a.step == "huge":
        huge(a.dir, a.jobs, a.engine if a.engine != "process" or a.jobs > 1 else None)
    else:
        report(a.dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
