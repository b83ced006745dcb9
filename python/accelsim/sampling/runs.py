"""Where a sampling round's windows run: in this process, one after the
other, or as units on an engine (``accelsim.units``)."""
from __future__ import annotations

from accelsim.stats.merged import export_stats
from accelsim.units.split import Unit


class LocalRuns:
    """Windows simulated here, in order."""

    def __init__(self, sim, path: str, threads, warmup: int, progress):
        self.sim, self.path, self.threads, self.progress = sim, path, threads, progress
        self.warmup, self.pieces = warmup, 1

    def __call__(self, units: list[Unit], options: list[dict], ids: list[int]) -> list[dict]:
        out = []
        for opts in options:
            r = self.sim._run_path(self.path, None, ids, opts, progress=self.progress, threads=self.threads)
            out.append({"columns": r.columns, "copies": r.copies, "total_cycles": r.total_cycles,
                        "completed": r.completed, "sm_count": r.sm_count, "core_period_ps": r.core_period_ps,
                        "stats": export_stats(r._stats)})
        return out


class EngineRuns:
    """Windows as units on an engine (processes, Dask)."""

    def __init__(self, sim, path: str, engine, threads, warmup: int, progress):
        from accelsim.units.runner import _engine_workers

        self.sim, self.path, self.engine, self.threads, self.progress = sim, path, engine, threads, progress
        self.warmup, self.pieces = warmup, 2 * _engine_workers(engine)

    def __call__(self, units: list[Unit], options: list[dict], ids: list[int]) -> list[dict]:
        from accelsim.units.runner import run_tasks
        from accelsim.units.task import make_task

        tasks = []
        for u, opts in zip(units, options):
            task = make_task(self.sim, self.path, opts, ids, self.threads)
            task["unit"] = u.index
            tasks.append(task)
        return run_tasks(self.engine, units, tasks, self.progress)


def make_runner(sim, path: str, engine, workers, threads, warmup: int, progress):
    if engine is None:
        return LocalRuns(sim, path, threads, warmup, progress)
    from accelsim.sweep.engines import make_engine

    return EngineRuns(sim, path, make_engine(engine, workers), threads, warmup, progress)
