"""One unit of a split run, as any engine executes it: a plain picklable
dict in, a plain dict out (the kernel columns, copies and the counter
families as NumPy arrays), so a worker process or a Dask worker does little
besides simulating."""
from __future__ import annotations

import os
import socket
import time

from accelsim.stats.merged import export_stats
from accelsim.sweep.tasks import error_text


def make_task(sim, path: str, options: dict, kernels, threads) -> dict:
    """``options``: the core's run options for this unit (window, warm-up,
    flush, intra-kernel sampling); ``kernels``: the ids to simulate (None: all)."""
    return {"path": path, "config": sim._values, "config_name": sim.config_name, "isa": sim._isa,
            "options": dict(options), "kernels": kernels, "threads": threads}


def run_unit(task: dict) -> dict:
    """Simulate one unit. A failure of the run itself comes back as status
    'error' with its text and exception class; only the death of the process
    running it is the engine's to report."""
    from accelsim.config import Config
    from accelsim.sim import Simulator

    start, cpu = time.perf_counter(), time.process_time()
    worker = f"{socket.gethostname()}:{os.getpid()}"
    try:
        # Checked values: a Config as is (no second validation per unit).
        sim = Simulator(Config(task["config"], task["config_name"]), isa_dir=task["isa"])
        result = sim._run_path(task["path"], None, task["kernels"], task["options"], progress=False,
                               threads=task["threads"])
    except Exception as exc:  # noqa: BLE001 - reported to the caller, who raises it
        return {"status": "error", "error": error_text(exc), "error_type": type(exc).__name__,
                "worker": worker, "wall_s": time.perf_counter() - start}
    return {"status": "ok", "columns": dict(result.columns), "copies": result.copies,
            "total_cycles": int(result.total_cycles), "completed": bool(result.completed),
            "sm_count": result.sm_count, "core_period_ps": result.core_period_ps,
            "trace_warnings": result.trace_warnings, "stats": export_stats(result._stats),
            "worker": worker, "wall_s": time.perf_counter() - start, "sim_wall_s": result.wall_time_s,
            "cpu_s": time.process_time() - cpu}
