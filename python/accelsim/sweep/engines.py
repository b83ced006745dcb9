"""Where a sweep's runs execute. Every engine has one method,
``imap(fn, tasks)``: a generator of ``(task, outcome)`` in completion order,
which stops its workers when closed (also on KeyboardInterrupt). ``fn`` is a
module-level function (picklable by reference), normally tasks.run_task.

* serial  — in this process, one run after the other (debugging, the tuner)
* process — a local pool of worker processes (pool.py), the default
* dask    — a ``distributed.LocalCluster`` of processes made for the call, or
            any ``distributed.Client`` passed in (its workers must be able to
            import accelsim and read the traces' paths)
"""
from __future__ import annotations

import os

from accelsim.errors import ConfigError
from accelsim.sweep.tasks import died, error_text

ENGINES = ("process", "serial", "dask")


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def make_engine(engine, workers: int | None):
    """The engine object; bad names and worker counts fail before anything runs."""
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise ConfigError(f"workers must be a positive whole number, got {workers!r}",
                          key="workers")
    if isinstance(engine, str):
        if engine == "serial":
            return SerialEngine()
        if engine == "process":
            return ProcessEngine(workers or usable_cores())
        if engine == "dask":
            return DaskEngine(None, workers or usable_cores())
        raise ConfigError(f"unknown sweep engine {engine!r}; engines: {', '.join(ENGINES)} "
                          "or a distributed.Client", key="engine")
    if type(engine).__name__ == "Client" and hasattr(engine, "submit"):
        return DaskEngine(engine, workers)
    raise ConfigError(f"engine must be one of {', '.join(ENGINES)} or a distributed.Client, "
                      f"got {type(engine).__name__}", key="engine")


class SerialEngine:
    name = "serial"
    workers = 1

    def imap(self, fn, tasks):
        for task in tasks:
            yield task, fn(task)


class ProcessEngine:
    name = "process"

    def __init__(self, workers: int):
        self.workers = workers

    def imap(self, fn, tasks):
        from accelsim.sweep.pool import run_pool

        yield from run_pool(fn, tasks, self.workers)


class DaskEngine:
    name = "dask"

    def __init__(self, client, workers: int | None):
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise ConfigError("engine 'dask' needs Dask: pip install 'accelsim[dask]'",
                              key="engine") from None
        self.client = client
        self.workers = workers

    def imap(self, fn, tasks):
        from distributed import as_completed

        client, cluster = self.client, None
        if client is None:
            client, cluster = _local_cluster(self.workers)
        futures = {}
        try:
            for task in tasks:
                futures[client.submit(fn, task, pure=False)] = task
            for future in as_completed(list(futures)):
                task = futures.pop(future)
                yield task, _outcome(future, task)
        finally:
            if futures:
                client.cancel(list(futures))
            if cluster is not None:
                client.close()
                cluster.close()


def _outcome(future, task) -> dict:
    from distributed import KilledWorker

    try:
        return future.result()
    except KilledWorker as exc:
        return died(task, f"Dask gave up on it after its workers died ({exc})")
    except Exception as exc:  # noqa: BLE001 - e.g. a worker that cannot import accelsim
        return {"status": "error", "error": error_text(exc)}


def _local_cluster(workers: int):
    """A LocalCluster of single-threaded worker processes. Each worker is sent
    one task at a time (worker-saturation 1.0), so a worker that dies takes
    only the task it was running with it; Dask retries that task once on a
    new worker (a death caused by something else gets a second chance) and
    then gives up on it (allowed-failures 1; Dask's default 3 would let one
    bad point kill four workers)."""
    import logging

    import dask
    from distributed import Client, LocalCluster

    with dask.config.set({"distributed.scheduler.worker-saturation": 1.0,
                          "distributed.scheduler.allowed-failures": 1}):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        client = Client(cluster)
    return client, cluster
