"""Start-up cost of the commands a user runs most: ``accelsim run --json`` and
``accelsim trace-info`` on a small trace, each in a fresh process, timed from
process start to exit, with that process's own peak resident memory."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

# What a user waits for before anything is simulated.
TARGET_WALL_S = 0.15
TARGET_RSS_MB = 60.0

COMMANDS = {
    "startup_run_json": lambda trace: ["run", str(trace), "--json"],
    "startup_trace_info": lambda trace: ["trace-info", str(trace)],
}


def small_trace(folder: Path) -> Path:
    """The bundled example's vecadd (4,096 elements, one kernel)."""
    from accelsim.tracegen.examples import write_vecadd

    return write_vecadd(folder, n=4096)


# `python -m accelsim ARGS` that writes its own peak RSS (VmHWM) on exit: the
# rusage of a child on Linux counts the parent's memory from before exec.
_WRAPPER = """
import atexit, os, runpy, sys
def _peak():
    with open("/proc/self/status") as f, open(os.environ["ACCELSIM_PEAK_FILE"], "w") as out:
        out.write(next(line.split()[1] for line in f if line.startswith("VmHWM:")))
if os.path.exists("/proc/self/status"):
    atexit.register(_peak)
sys.argv = ["accelsim", *sys.argv[1:]]
runpy.run_module("accelsim", run_name="__main__", alter_sys=True)
"""


def measure(args: list[str], repeats: int = 3) -> dict:
    """Best wall time and peak RSS of ``python -m accelsim ARGS`` over
    ``repeats`` fresh processes (the best is the least disturbed by other load)."""
    import tempfile

    walls, rss = [], []
    for _ in range(repeats):
        with tempfile.NamedTemporaryFile("r", suffix=".peak") as peak, \
                tempfile.TemporaryFile() as errors:
            start = time.perf_counter()
            proc = subprocess.Popen([sys.executable, "-c", _WRAPPER, *args],
                                    stdout=subprocess.DEVNULL, stderr=errors,
                                    env={**os.environ, "ACCELSIM_PEAK_FILE": peak.name})
            _, status, usage = os.wait4(proc.pid, 0)
            walls.append(time.perf_counter() - start)
            if os.waitstatus_to_exitcode(status) != 0:
                errors.seek(0)
                raise RuntimeError(f"accelsim {' '.join(args)} failed:\n"
                                   f"{errors.read().decode(errors='replace')}")
            own_kib = peak.read().strip()
        rss.append(int(own_kib or usage.ru_maxrss) / 1024.0)  # KiB
    return {"wall_s": min(walls), "peak_rss_mb": min(rss)}


def startup_rows(quick: bool) -> list[dict]:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="accelsim-startup-") as tmp:
        return _rows(small_trace(Path(tmp)), quick)


def _rows(trace: Path, quick: bool) -> list[dict]:
    base = measure(["--help"], repeats=3)  # interpreter + parser: the floor
    rows = []
    for name, command in COMMANDS.items():
        m = measure(command(trace))
        ok = m["wall_s"] <= TARGET_WALL_S and m["peak_rss_mb"] <= TARGET_RSS_MB
        rows.append({"case": name, "description": f"accelsim {' '.join(command('TRACE'))} "
                     "(small trace), process start to exit", **m,
                     "help_wall_s": base["wall_s"], "target_wall_s": TARGET_WALL_S,
                     "target_rss_mb": TARGET_RSS_MB, "meets_target": None if quick else ok})
    return rows
