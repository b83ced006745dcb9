"""One run of a sweep (a point on one workload), as executed by any engine:
a plain picklable dict in, a plain dict out, no pandas, so that a worker
process or a Dask worker does as little as possible besides simulating."""
from __future__ import annotations

import functools
import inspect
import os
import socket
import time
import traceback

from accelsim.errors import AccelsimError


def make_task(key: str, point_key: str, workload: str, path: str, config: dict,
              kernels, max_cycles, config_name: str = "sweep") -> dict:
    """``config``: the point's complete canonical values (base + swept values),
    already checked by the sweep (points.make_points)."""
    return {"key": key, "point_key": point_key, "workload": workload, "path": path,
            "config": config, "config_name": config_name, "kernels": kernels,
            "max_cycles": max_cycles}


def run_task(task: dict) -> dict:
    """Simulate one run. Every failure of the run itself (bad trace, deadlock,
    a bug) comes back as status 'error' with its text; only the death of the
    process running it is the engine's to report."""
    from accelsim._warnings import collected
    from accelsim.config import Config
    from accelsim.sim import Simulator

    start = time.perf_counter()
    worker = f"{socket.gethostname()}:{os.getpid()}"
    # Warnings travel back with the outcome: the sweep shows each once, instead
    # of every worker process printing its own copy.
    failure: Exception | None = None
    with collected(show=False) as said:
        try:
            # Checked values: a Config as is (no second validation per run).
            sim = Simulator(Config(task["config"], task.get("config_name", "sweep")))
            result = sim.run(task["path"], max_cycles=task["max_cycles"], kernels=task["kernels"],
                             **_quiet())
        except Exception as exc:  # noqa: BLE001 - recorded in the table, the sweep goes on
            failure = exc
    if failure is not None:
        return {"status": "error", "error": error_text(failure), "worker": worker,
                "wall_s": time.perf_counter() - start, "sim_wall_s": None, "warnings": said}
    kernels = dict(result.columns)
    # as SimResult.kernels has it: at the core clock, as the profiler's duration
    kernels["duration_ns"] = [c * result.core_period_ps / 1000.0 for c in kernels["cycles"]]
    kernels["completed"] = [bool(result.completed)] * len(kernels["id"])
    return {"status": "ok", "kernels": kernels, "worker": worker,
            "wall_s": time.perf_counter() - start, "sim_wall_s": result.wall_time_s,
            "warnings": said}


@functools.lru_cache(maxsize=1)
def _quiet() -> dict:
    """Where Simulator.run can show a progress bar of its own, turn it off:
    a sweep shows one bar for all its runs."""
    from accelsim.sim import Simulator

    return {"progress": False} if "progress" in inspect.signature(Simulator.run).parameters else {}


def error_text(exc: BaseException) -> str:
    """Our own errors say where the problem is; anything else is a bug, for
    which the traceback is what helps."""
    if isinstance(exc, AccelsimError):
        return f"{type(exc).__name__}: {exc}"
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).strip()


def died(task: dict, reason: str) -> dict:
    """The outcome of a run whose worker process died under it."""
    return {"status": "error", "error": f"worker died while running this point: {reason}",
            "worker": None, "wall_s": None, "sim_wall_s": None}
