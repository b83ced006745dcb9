"""Runs benchmark cases, each simulation in a fresh Python process so that the
peak resident memory reported is that case's alone."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from accelsim.bench.cases import CASES, RSS_LIMIT_MB, BenchCase
from accelsim.errors import ConfigError

_CHILD = """
import json, sys, time
import accelsim
from accelsim.bench.memory import status_mb

spec = json.loads(sys.argv[2])
cfg = accelsim.load_config(spec["config"]).with_overrides(spec["overrides"])
sim = accelsim.Simulator(cfg)
before = status_mb("VmRSS")
extra = {}
t, cpu = time.perf_counter(), time.process_time()
if sys.argv[1].endswith(".ptxbench.json"):  # PTX mode: emulation + timing of a launch
    from accelsim.bench.ptx_cases import run_case
    r, wall, emu, more = run_case(sys.argv[1], cfg)
    extra = {"emulation_s": emu, "emulation_share": min(1.0, emu / wall) if wall > 0 else None, **more}
else:
    r = sim.run(sys.argv[1])
    wall = time.perf_counter() - t
cpu = time.process_time() - cpu
print(json.dumps({**extra, "wall_s": wall, "cpu_s": cpu, "cycles": int(r.total_cycles),
                  "warp_insts": r.warp_instructions, "kernels": r.num_kernels,
                  "completed": bool(r.completed), "peak_rss_mb": status_mb("VmHWM"),
                  "rss_before_run_mb": before}))
"""


def shared_trace(name: str) -> Path | None:
    """A real trace from ``shared/data`` beside the checkout (searched from the
    working directory and from this package upwards) or $ACCELSIM_SHARED_DATA;
    None when absent."""
    env = os.environ.get("ACCELSIM_SHARED_DATA")
    roots = [Path.cwd().resolve(), *Path.cwd().resolve().parents,
             *Path(__file__).resolve().parents]
    candidates = ([Path(env)] if env else []) + [p / "shared" / "data" for p in roots]
    for data in candidates:
        folder = data / "traces" / name
        if (folder / "kernelslist.g").is_file():
            return folder
    return None


def _measure(workload: Path, config: str, overrides: dict) -> dict:
    spec = json.dumps({"config": str(config), "overrides": overrides})
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(workload), spec],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"benchmark process failed on {workload}:\n{proc.stderr.strip()}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _row(case: BenchCase, m: dict) -> dict:
    row = {"case": case.name, "description": case.description, **m}
    row["warp_insts_per_s"] = m["warp_insts"] / m["wall_s"] if m["wall_s"] > 0 else float("inf")
    row["cycles_per_s"] = m["cycles"] / m["wall_s"] if m["wall_s"] > 0 else float("inf")
    ref = case.ref_cycles_per_s if case.metric == "cycles_per_s" else case.ref_warp_insts_per_s
    row["ref_rate"] = ref
    row["speedup_vs_ref"] = row[case.metric] / ref if ref else None
    row["target_speedup"] = case.target_speedup
    row["meets_target"] = (row["speedup_vs_ref"] >= case.target_speedup
                           if ref and case.target_speedup else None)
    row["rss_ok"] = m["peak_rss_mb"] < RSS_LIMIT_MB
    return row


DEFAULT_CONFIG = "QV100"  # what `accelsim run` simulates by default (detailed memory)


def _with_speedup(row: dict, base: dict, threads: int) -> dict:
    row["threads"] = threads
    row["wall_1_thread_s"] = base["wall_s"]
    row["speedup_vs_1_thread"] = base["wall_s"] / row["wall_s"] if row["wall_s"] > 0 else None
    row["same_result"] = (base["cycles"], base["warp_insts"]) == (row["cycles"], row["warp_insts"])
    return row


def run_bench(quick: bool = False, cases: list[str] | None = None, config: str | None = None,
              progress=None, overrides: dict | None = None,
              threads: int | None = None) -> list[dict]:
    """Measures every case (or those named); returns one dict per case with
    wall_s, cycles, warp_insts, cycles_per_s, warp_insts_per_s, peak_rss_mb,
    speedup_vs_ref, meets_target. `quick` shrinks the generated workloads and
    skips the real trace (for tests). Cases without their data are skipped.
    `config` (default QV100) and `overrides` choose what is simulated, e.g.
    ``overrides={"memory_model": "simple"}`` for the fast fidelity level.
    `threads`: simulate with that many threads, and measure each case at
    one thread too, right before (so both see the same machine load): rows
    gain threads, wall_1_thread_s, speedup_vs_1_thread and same_result."""
    config = config or DEFAULT_CONFIG
    overrides = dict(overrides or {})
    if threads is not None:
        overrides["threads"] = threads
    from accelsim.config import load_config
    load_config(config).with_overrides(overrides)  # bad names fail here, not in a child
    from dataclasses import replace

    from accelsim.bench.startup import COMMANDS, startup_rows

    selected = [c for c in CASES if cases is None or c.name in cases]
    startup = cases is None or "startup" in cases
    known = [c.name for c in CASES] + ["startup"]
    unknown = [c for c in (cases or []) if c not in known]
    if unknown:
        raise ConfigError(f"unknown bench case{'s' if len(unknown) > 1 else ''} "
                          f"{', '.join(map(repr, unknown))}; the cases are: {', '.join(known)}",
                          key="case")
    if quick:  # targets are about the full-size workloads; a quick run is a smoke test
        selected = [replace(c, target_speedup=None) for c in selected]
    rows = []
    if startup:
        if progress:
            progress("startup (" + ", ".join(COMMANDS) + ")")
        rows += startup_rows(quick)
    with tempfile.TemporaryDirectory(prefix="accelsim-bench-") as tmp:
        for case in selected:
            if quick and case.name == "bfs":
                continue
            workload = case.make(Path(tmp) / case.name, quick)
            if workload is None:
                continue
            if progress:
                progress(case.name)
            if threads is None:
                rows.append(_row(case, _measure(workload, config, overrides)))
                continue
            base = _measure(workload, config, {**overrides, "threads": 1})
            row = _row(case, _measure(workload, config, overrides))
            rows.append(_with_speedup(row, base, threads))
    return rows
