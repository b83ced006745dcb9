"""``accelsim.sweep(...)``: check everything, skip what is stored, run the
rest on an engine, store each run as it finishes, return the table."""
from __future__ import annotations

import tempfile
import warnings
from pathlib import Path

from accelsim._warnings import emit_once
from accelsim.config import load_config
from accelsim.errors import AccelsimWarning, ConfigError
from accelsim.kernel_selection import parse_kernels
from accelsim.sweep.engines import make_engine
from accelsim.sweep.points import make_points
from accelsim.sweep.progress import Progress
from accelsim.sweep.storage import SweepStore, assemble, read_manifest, run_key
from accelsim.sweep.tasks import make_task, run_task
from accelsim.sweep.workloads import named_workloads, workload_fingerprint


def sweep(workloads, config, grid=None, *, points=None, out=None, engine="process",
          workers=None, kernels=None, max_cycles=None, progress=None, resume=True,
          _run=run_task):
    """Simulate ``workloads`` on every point of a parameter sweep.

    workloads: a trace path (kernelslist.g or its folder), a list of them, or
        a dict name -> path.
    config: the base config (a bundled name, a YAML path, or a Config).
    grid: parameter -> list of values (the cartesian product is swept), values
        as in a config file (``"6 MiB"``, ``"gto"``); or ``points``: an
        explicit list of dicts. Names and values are checked before anything runs.
    out: the directory for the results (one Parquet file per run, written as
        it finishes); a rerun with the same ``out`` skips stored runs and
        recomputes failed or missing ones (``resume=False`` starts over).
        Default: a new temporary directory (``df.attrs["out"]``).
    engine: "process" (a local pool of ``workers`` processes, default all
        usable cores), "serial" (in this process), "dask" (a LocalCluster of
        ``workers`` processes) or a ``distributed.Client``.
    kernels, max_cycles: as in ``Simulator.run``, for every run.
    progress: None (a bar in terminals and notebooks), True, False, or a
        callable receiving a dict after every finished run.

    Returns a DataFrame with one row per point x workload x kernel: ``point``,
    every swept parameter (canonical units), ``workload``, ``kernel_id``,
    ``kernel_name``, the kernel table's columns (cycles, warp_instructions,
    ipc, ...), ``completed``, ``status`` ('ok'/'error') and ``error``; a
    failed run (an exception, or its worker died) is one row with its error.
    """
    base = load_config(config)
    params, pts = make_points(base, grid, points)
    names = named_workloads(workloads)
    kernel_ids = parse_kernels(kernels)
    if max_cycles is not None and (isinstance(max_cycles, bool) or not isinstance(max_cycles, int)
                                   or max_cycles < 1):
        raise ConfigError(f"max_cycles must be a positive whole number, got {max_cycles!r}",
                          key="max_cycles")
    eng = make_engine(engine, workers)
    root = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="accelsim-sweep-"))
    fixed = {"config": {"name": base.name, "values": base.core_dict()},
             "workloads": {n: workload_fingerprint(p) for n, p in names.items()},
             "kernels": kernel_ids, "max_cycles": max_cycles}
    with SweepStore.open(root, fixed, params, pts, resume) as store:
        runs = [(p, w) for p in pts for w in names]
        state = {(p.key, w): store.stored(run_key(p.key, w)) for p, w in runs}
        todo = [(p, w) for p, w in runs if state[(p.key, w)][0] != "ok"]
        corrupt = [(p.index, w, state[(p.key, w)][1]) for p, w in todo
                   if state[(p.key, w)][0] == "corrupt"]
        if corrupt:
            warn_unverified(root, corrupt, "are recomputed")
        _execute(store, eng, base, todo, names, kernel_ids, max_cycles, _run,
                 Progress(progress, len(runs), len(runs) - len(todo)))
        table = store.frame([p.key for p in pts], list(names), params)
    if table.attrs.get("unverified"):  # damaged while this sweep ran
        warn_unverified(root, table.attrs["unverified"], "are left out of the table")
    _describe(table, root, base.name, params, len(pts), eng.name)
    table.attrs["recomputed_unverified"] = len(corrupt)
    return table


def warn_unverified(root, runs: list, action: str) -> None:
    """One warning for the stored runs whose files failed verification."""
    shown = "; ".join(f"point {i} on {w}: {why}" for i, w, why in runs[:5])
    more = f"; and {len(runs) - 5} more" if len(runs) > 5 else ""
    warnings.warn(f"{root}: {len(runs)} stored run(s) failed verification and {action} "
                  f"({shown}{more})", AccelsimWarning, stacklevel=3)


def _execute(store, eng, base, todo, names, kernel_ids, max_cycles, fn, bar) -> None:
    base_values = base.core_dict()
    by_key, tasks = {}, []
    for point, workload in todo:
        key = run_key(point.key, workload)
        by_key[key] = (point, workload)
        tasks.append(make_task(key, point.key, workload, names[workload],
                               {**base_values, **point.values}, kernel_ids, max_cycles,
                               base.name))
    if not tasks:
        bar.close()
        return  # all stored: no engine (no pool, no cluster) is started
    results = eng.imap(fn, tasks)
    shown: set = set()  # each warning once per sweep, whichever worker saw it
    try:
        for task, outcome in results:
            point, workload = by_key[task["key"]]
            store.write_run(task["key"], point, workload, outcome)
            emit_once(outcome.get("warnings") or [], shown)
            bar.update(point.index, workload, outcome)
    finally:
        results.close()  # stops the engine's workers (at once on KeyboardInterrupt)
        bar.close()


def _describe(table, root, config_name, params, n_points, engine) -> None:
    errors = int((table["status"] == "error").sum()) if "status" in table else 0
    table.attrs.update({"out": str(root), "config": config_name, "params": list(params),
                        "points": n_points, "engine": engine, "errors": errors})


def load_sweep(out, timings: bool = False):
    """The table of every run stored in a sweep directory (all points ever
    asked for there, finished ones only). ``timings=True`` adds wall_s
    (the run, in its worker), sim_wall_s (Simulator.run alone) and worker."""
    root = Path(out)
    manifest = read_manifest(root)
    workloads = list(manifest["workloads"])
    params = list(manifest["params"])
    table = assemble(root, manifest, list(manifest["points"]), workloads, params, timings)
    if table.attrs.get("unverified"):
        warn_unverified(root, table.attrs["unverified"],
                        "are left out of the table (run the sweep again to recompute them)")
    expected = len(manifest["points"]) * len(workloads)
    stored = table[["point", "workload"]].drop_duplicates().shape[0] if len(table) else 0
    _describe(table, root, manifest["config"]["name"], params, len(manifest["points"]), None)
    table.attrs["missing_runs"] = expected - stored
    return table
