"""Running a workload's units on an engine (the sweep's: a local process
pool, Dask, or in this process) and merging them. A unit whose worker died
is run once more on another worker; every other unit's work is kept."""
from __future__ import annotations

import time

from accelsim import _args, errors
from accelsim.errors import AccelsimError, Interrupted
from accelsim.sampling.units.split import Unit, split_commands
from accelsim.sampling.units.task import make_task, run_unit


def _engine_workers(engine) -> int:
    from accelsim.sweep.engines import usable_cores

    if engine.workers:
        return int(engine.workers)
    client = getattr(engine, "client", None)
    if client is not None:
        return max(1, len(client.scheduler_info().get("workers", {})))
    return usable_cores()


def _failure(unit: Unit, outcome: dict) -> AccelsimError:
    """The unit's error as the class the run raised (an accelsim error), else
    an AccelsimError carrying its text."""
    cls = getattr(errors, outcome.get("error_type") or "", None)
    message = f"{unit.describe()}: {outcome.get('error')}"
    if isinstance(cls, type) and issubclass(cls, AccelsimError) and cls is not errors.PtxError:
        try:
            return cls(message)
        except TypeError:
            pass
    return AccelsimError(message)


def run_tasks(engine, units: list[Unit], tasks: list[dict], progress=None, retries: int = 1) -> list[dict]:
    """Outcomes in unit order. A unit whose worker died is retried up to
    ``retries`` times; a unit that failed in the simulator raises."""
    from accelsim.sweep.progress import Progress

    results: dict[int, dict] = {}
    pending = list(tasks)
    bar = Progress(progress, len(tasks), 0, desc="units")
    try:
        for attempt in range(retries + 1):
            again = []
            for task, out in engine.imap(run_unit, pending):
                unit = units[task["unit"]]
                if out["status"] == "ok":
                    results[unit.index] = out
                    bar.update(unit.index, task["path"], out)
                elif out.get("worker") is None and attempt < retries:  # its worker died
                    again.append(task)
                else:
                    raise _failure(unit, out)
            pending = again
            if not pending:
                break
    except KeyboardInterrupt:
        raise _Stopped(results) from None
    finally:
        bar.close()
    return [results[u.index] for u in units]


class _Stopped(KeyboardInterrupt):
    def __init__(self, done: dict):
        super().__init__("interrupted")
        self.done = done


def run_split(sim, path: str, options: dict, ids, *, engine, workers, units, warmup, threads):
    """``Simulator.run(..., engine=...)``: see its docstring."""
    from accelsim.sampling.profile import workload_commands
    from accelsim.sweep.engines import make_engine
    from accelsim.sampling.units.merge import merge_outcomes

    warmup = _args.bounded_int("warmup", warmup, 0, 1000)
    eng = make_engine(engine, workers)
    pieces = 2 * _engine_workers(eng) if units is None else _args.bounded_int("units", units, 1, 1_000_000)
    start = time.perf_counter()
    commands = workload_commands(path)
    flush = bool(options.get("flush"))
    plan = split_commands(commands, pieces, 0 if flush else warmup,
                          0.0 if flush else 2.0 * float(sim.param("l2_size")), _footprints(sim, commands))
    tasks = []
    for u in plan:
        task = make_task(sim, path, {**options, **u.core_options()}, ids, threads)
        task["unit"] = u.index
        tasks.append(task)
    info = {"units": [u.__dict__.copy() for u in plan], "engine": getattr(eng, "name", str(engine))}
    try:
        outcomes = run_tasks(eng, plan, tasks)
    except _Stopped as stop:
        done = [stop.done[u.index] for u in plan[:_prefix(plan, stop.done)]]
        partial = merge_outcomes(sim, path, done, time.perf_counter() - start, info) if done else None
        raise Interrupted(_with_rest_unreached(sim, path, partial, commands, plan, len(done))) from None
    for entry, out in zip(info["units"], outcomes):
        entry.update(worker=out["worker"], wall_s=out["wall_s"], sim_wall_s=out["sim_wall_s"],
                     cpu_s=out.get("cpu_s"))
    return merge_outcomes(sim, path, outcomes, time.perf_counter() - start, info)


def _footprints(sim, commands: list):
    """A kernel's estimated footprint (bytes), by command position, profiled
    from its first blocks when first asked for (only the kernels before unit
    boundaries are)."""
    from accelsim.sampling.profile import KernelProfile, _profile_one
    from accelsim.trace._isa import isa_registry

    registry = isa_registry(sim._isa, sim.opcode_units or None)
    cache: dict[int, KernelProfile] = {}

    def footprint(position: int) -> float:
        if position not in cache:
            cache[position] = _profile_one((0, position, commands[position][3], registry, 2))
        return cache[position].footprint_bytes
    return footprint


def _prefix(plan: list[Unit], done: dict) -> int:
    n = 0
    while n < len(plan) and plan[n].index in done:
        n += 1
    return n


def _with_rest_unreached(sim, path, partial, commands, plan, done_units):
    """A partial result: the units done in order, every later kernel not reached."""
    from accelsim.sampling.units.unreached import unreached_result

    first = plan[done_units].count_from if done_units < len(plan) else len(commands)
    return unreached_result(sim, path, partial, commands, first)
