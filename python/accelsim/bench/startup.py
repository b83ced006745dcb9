"""Start-up cost of the commands a user runs most: ``accelsim run --json`` and
``accelsim trace-info`` on a small trace, each in a fresh process, timed from
process start to exit, with that process's own peak resident memory."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

# What a user waits for before anything is simulated (issue 11 §2).
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


def measure(args: list[str], repeats: int = 3) -> dict:
    """Best wall time and peak RSS of ``python -m accelsim ARGS`` over
    ``repeats`` fresh processes (the best is the least disturbed by other load)."""
    walls, rss = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "accelsim", *args],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - start)
        proc.returncode = os.waitstatus_to_exitcode(status)
        assert proc.stderr is not None
        errors = proc.stderr.read().decode(errors="replace")
        proc.stderr.close()
        if proc.returncode != 0:
            raise RuntimeError(f"accelsim {' '.join(args)} failed:\n{errors}")
        rss.append(usage.ru_maxrss / 1024.0)  # KiB on Linux
    return {"wall_s": min(walls), "peak_rss_mb": min(rss)}


def startup_rows(folder: Path, quick: bool) -> list[dict]:
    trace = small_trace(folder)
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
