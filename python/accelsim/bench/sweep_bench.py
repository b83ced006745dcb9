"""Sweep throughput (``accelsim bench --sweep``): the same grid of points on
one generated workload, timed as bare ``Simulator.run`` calls in a loop and
through ``accelsim.sweep`` on each engine, all in one command so that the
ratios hold on a shared machine even when the absolute rates do not."""
from __future__ import annotations

import functools
import os
import tempfile
import time
from pathlib import Path

from accelsim.errors import ConfigError

# 16 points: every run of the grid simulates the same instructions, so the
# points cost about the same and the rates compare engines, not points.
GRID = {"icnt_latency": [4, 8, 12, 16], "l2_rop_latency": [100, 160, 220, 280]}
QUICK_GRID = {"icnt_latency": [4, 8], "l2_rop_latency": [100, 160]}

# (label, engine, workers); the bare loop comes first, as the reference.
# "dask x2" starts its LocalCluster inside the timed call, as a user's
# engine="dask" does; "dask x2 (running)" is given a Client of a cluster
# started beforehand, as on a cluster that is already up.
ENGINES = [("serial (in process)", "serial", 1), ("process x1", "process", 1),
           ("process x2", "process", 2), ("dask x2", "dask", 2),
           ("dask x2 (running)", "dask-client", 2)]


def run_sweep_bench(quick: bool = False, config: str = "QV100", overrides: dict | None = None,
                    engines: list[str] | None = None, progress=None) -> list[dict]:
    """One row per way of running the grid: label, engine, workers, points,
    wall_s, points_per_min, overhead_per_point_s (over the bare loop, per
    point, wall time), speedup_vs_process_x1."""
    from accelsim.config import load_config
    from accelsim.sweep import sweep
    from accelsim.tracegen.examples import write_vecadd

    base = load_config(config).with_overrides(dict(overrides or {}))
    known = sorted({engine.split("-")[0] for _, engine, _ in ENGINES})
    unknown = [e for e in engines or [] if e not in known]
    if unknown:
        raise ConfigError(f"unknown sweep engine(s) {', '.join(map(repr, unknown))}; the engines "
                          f"are: {', '.join(known)}", key="engine")
    grid = QUICK_GRID if quick else GRID
    rows = []
    with tempfile.TemporaryDirectory(prefix="accelsim-sweep-bench-") as tmp:
        workload = write_vecadd(Path(tmp) / "vecadd", n=8192 if quick else 65536)
        # Load what a first sweep in a process imports (pyarrow, pandas, tqdm)
        # before timing: a one-off cost, not a per-sweep one.
        sweep({"vecadd": workload}, base, out=Path(tmp) / "warm-up", engine="serial",
              progress=False)
        if progress:
            progress("bare Simulator.run loop")
        rows.append(_row("bare Simulator.run", "-", 1, grid,
                         *_timed(lambda: _bare(base, grid, workload))))
        for label, engine, workers in ENGINES:
            if engines is not None and engine.split("-")[0] not in engines:
                continue
            if engine.startswith("dask") and not _have_dask():
                continue
            if progress:
                progress(label)
            client = _client(workers) if engine == "dask-client" else None
            try:
                before = _worker_cpu(client)
                table, wall, cpu = _timed(functools.partial(
                    sweep, {"vecadd": workload}, base, grid, out=Path(tmp) / label,
                    engine=client or engine, workers=workers, progress=False))
                cpu += _worker_cpu(client) - before  # a running cluster's workers are no children
            finally:
                if client is not None:
                    cluster = client.cluster
                    client.close()
                    cluster.close()
            if table.attrs["errors"]:
                raise RuntimeError(f"sweep bench: {label} had failed runs: "
                                   f"{table['error'].dropna().iloc[0]}")
            rows.append(_row(label, engine, workers, grid, table, wall, cpu))
    return _ratios(rows)


def _timed(fn):
    """fn's result, wall seconds, and CPU seconds of this process and of the
    children it waited for meanwhile."""
    def cpu() -> float:
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system

    wall0, cpu0 = time.perf_counter(), cpu()
    value = fn()
    return value, time.perf_counter() - wall0, cpu() - cpu0


def _bare(base, grid, workload) -> None:
    """The same points as plain runs in this process: config, Simulator, run."""
    import itertools

    from accelsim.sim import Simulator

    names = list(grid)
    for combo in itertools.product(*(grid[n] for n in names)):
        Simulator(base.with_overrides(dict(zip(names, combo)))).run(workload)


def _row(label, engine, workers, grid, _value, wall, cpu) -> dict:
    points = 1
    for values in grid.values():
        points *= len(values)
    return {"label": label, "engine": engine, "workers": workers, "points": points,
            "wall_s": wall, "points_per_min": 60.0 * points / wall if wall > 0 else float("inf"),
            "cpu_s": cpu, "cpu_s_per_point": cpu / points}


def _ratios(rows: list[dict]) -> list[dict]:
    """Overheads per point over the bare loop (wall: one-worker engines only;
    CPU: every engine), speedup over process x1."""
    bare = rows[0]
    one = next((r for r in rows if r["engine"] == "process" and r["workers"] == 1), None)
    for r in rows:
        later = r is not bare
        r["overhead_wall_s_per_point"] = (r["wall_s"] - bare["wall_s"]) / r["points"] \
            if later and r["workers"] == 1 else None
        r["overhead_cpu_s_per_point"] = r["cpu_s_per_point"] - bare["cpu_s_per_point"] \
            if later else None
        r["speedup_vs_process_x1"] = one["wall_s"] / r["wall_s"] if one else None
    return rows


def _client(workers: int):
    from accelsim.sweep.engines import _local_cluster

    client, _ = _local_cluster(workers)
    client.wait_for_workers(workers)
    client.run(_warm)  # workers import the simulator now, not in the timed sweep
    return client


def _worker_cpu(client) -> float:
    """CPU seconds the Dask workers of ``client`` have used so far (0 without one)."""
    if client is None:
        return 0.0
    return sum(client.run(_process_cpu).values())


def _process_cpu() -> float:
    t = os.times()
    return t.user + t.system


def _warm() -> None:
    import accelsim.sim  # noqa: F401
    import accelsim.sweep.tasks  # noqa: F401


def _have_dask() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True
