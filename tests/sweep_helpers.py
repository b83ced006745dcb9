"""Helpers for the sweep tests: tiny generated workloads, and task functions
that run the real simulation but make one chosen point's worker die, the way
a crash or the out-of-memory killer would (worker processes import this
module by name: the pool and Dask give them the test process's sys.path)."""
from __future__ import annotations

import os
import signal
from pathlib import Path

from accelsim.bench import workloads as bench_workloads
from accelsim.sweep.tasks import run_task
from accelsim.tracegen.examples import write_vecadd

# 3 parameters x 3 values, each changing the cycles of both workloads.
GRID = {"icnt_latency": ["4 cycles", 8, "16 cycles"],
        "l2_rop_latency": [60, 160, 300],
        "scheduler": ["lrr", "gto", "two_level"]}


def make_workloads(folder: Path) -> dict:
    """Two small workloads: a 1,024-element vecadd and a 10-step pointer chase."""
    return {"vecadd": str(write_vecadd(folder / "vecadd", n=1024)),
            "chase": str(bench_workloads.pointer_chase(folder / "chase", steps=10))}


VICTIM = {"icnt_latency": 16, "l2_rop_latency": 300, "scheduler": "gto"}  # on "chase"


def _victim(task) -> bool:
    return task["workload"] == "chase" and all(task["config"][k] == v for k, v in VICTIM.items())


def exit_on_victim(task):
    """The victim point's worker process exits abruptly (no exception, no cleanup)."""
    if _victim(task):
        os._exit(3)
    return run_task(task)


def sigkill_on_victim(task):
    """The victim point's worker process is SIGKILLed mid-run."""
    if _victim(task):
        os.kill(os.getpid(), signal.SIGKILL)
    return run_task(task)


def killed_once_on_victim(task):
    """Every run logs its start in $ACCELSIM_TEST_MARKS/starts.log; the victim's
    first run also writes its worker's pid to victim.pid and then waits to be
    killed from outside (by the test), as a worker lost to a crash or to the
    out-of-memory killer would be. Its retry runs normally."""
    marks = Path(os.environ["ACCELSIM_TEST_MARKS"])
    with open(marks / "starts.log", "a") as log:
        log.write(f"{task['key']} {os.getpid()}\n")
    if _victim(task) and not (marks / "victim.pid").exists():
        tmp = marks / "victim.pid.tmp"
        tmp.write_text(str(os.getpid()))
        tmp.replace(marks / "victim.pid")
        import threading

        threading.Event().wait(300)  # the test kills this process long before
    return run_task(task)
