"""Where a sampling round's windows run: in this process, one after the
other, or as units on an engine (``accelsim.sampling.units``)."""
from __future__ import annotations

from accelsim.stats.merged import export_stats
from accelsim.sampling.units.split import Unit


class LocalRuns:
    """Windows simulated here, in order."""

    def __init__(self, sim, path: str, threads, progress, warmup: int, replay_bytes: float):
        self.sim, self.path, self.threads, self.progress = sim, path, threads, progress
        self.warmup, self.replay_bytes, self.pieces = warmup, replay_bytes, 1

    def __call__(self, units: list[Unit], options: list[dict], ids: list[list[int]]) -> list[dict]:
        out = []
        for opts, mine in zip(options, ids):
            r = self.sim._run_path(self.path, None, mine, opts, progress=self.progress, threads=self.threads)
            out.append({"columns": r.columns, "copies": r.copies, "total_cycles": r.total_cycles,
                        "completed": r.completed, "sm_count": r.sm_count, "core_period_ps": r.core_period_ps,
                        "stats": export_stats(r._stats)})
        return out


class EngineRuns:
    """Windows as units on an engine (processes, Dask)."""

    def __init__(self, sim, path: str, engine, threads, progress, warmup: int, replay_bytes: float):
        from accelsim.sampling.units.runner import _engine_workers

        self.sim, self.path, self.engine, self.threads, self.progress = sim, path, engine, threads, progress
        self.warmup, self.replay_bytes, self.pieces = warmup, replay_bytes, 2 * _engine_workers(engine)

    def __call__(self, units: list[Unit], options: list[dict], ids: list[list[int]]) -> list[dict]:
        from accelsim.sampling.units.runner import run_tasks
        from accelsim.sampling.units.task import make_task

        tasks = []
        for u, opts, mine in zip(units, options, ids):
            task = make_task(self.sim, self.path, opts, mine, self.threads)
            task["unit"] = u.index
            tasks.append(task)
        return run_tasks(self.engine, units, tasks, self.progress)


def make_runner(sim, path: str, engine, workers, threads, progress, *, warmup: int, replay_bytes: float):
    if engine is None:
        return LocalRuns(sim, path, threads, progress, warmup, replay_bytes)
    from accelsim.sweep.engines import make_engine

    return EngineRuns(sim, path, make_engine(engine, workers), threads, progress, warmup, replay_bytes)
