"""A local process pool that knows which task each worker runs, so a worker
that dies (SIGKILL, out of memory, ``os._exit``) costs exactly its own task:
that task is reported as died, a new worker takes the next one, and nothing
else is lost. (``concurrent.futures.ProcessPoolExecutor`` breaks as a whole
when one worker dies, failing every pending task with no way to tell which
one killed it.)"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import deque
from multiprocessing.connection import Connection, wait

from accelsim.errors import AccelsimError
from accelsim.sweep.tasks import died

_START_TIMEOUT_S = 120.0


class _Worker:
    def __init__(self):
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        try:
            # A new session: a Ctrl-C in the terminal reaches the parent only,
            # which then stops the workers itself.
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "accelsim.sweep.worker", str(to_child_r), str(from_child_w)],
                pass_fds=(to_child_r, from_child_w), stdin=subprocess.DEVNULL,
                start_new_session=True, env=_child_env())
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        self.send = Connection(to_child_w, readable=False)
        self.recv = Connection(from_child_r, writable=False)
        self.task = None

    def wait_ready(self, deadline: float) -> None:
        if not self.recv.poll(max(0.0, deadline - time.monotonic())):
            raise AccelsimError("a sweep worker process did not start in "
                                f"{_START_TIMEOUT_S:.0f} s")
        try:
            kind, _pid = self.recv.recv()
        except (EOFError, OSError):
            raise AccelsimError(f"a sweep worker process failed to start ({self.reason()}); "
                                "its error is printed above") from None
        assert kind == "ready"

    def reason(self) -> str:
        """Why the process ended (waits for it)."""
        try:
            code = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exited with status {code}"

    def stop(self) -> None:
        """An idle worker ends at the end of its input; a busy one (we are
        being interrupted) or a stuck one is killed: its run is not stored."""
        self.send.close()
        self.recv.close()
        try:
            self.proc.wait(timeout=0 if self.task is not None else 5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _child_env() -> dict:
    """This process's import path, so the worker imports the same accelsim
    (and the same modules a custom task function lives in) as we do."""
    paths = [p or os.getcwd() for p in sys.path]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def run_pool(fn, tasks: list, workers: int):
    """Yields ``(task, outcome)`` as tasks finish; a task whose worker died
    yields ``tasks.died(...)``. Closing the generator (or an exception in it,
    e.g. KeyboardInterrupt) stops every worker."""
    pending = deque(tasks)
    pool: list[_Worker] = []  # live workers; one that dies is dropped and replaced lazily
    try:
        for _ in range(min(workers, len(pending))):
            pool.append(_Worker())
        deadline = time.monotonic() + _START_TIMEOUT_S
        for w in pool:
            w.wait_ready(deadline)
        while pending or any(w.task is not None for w in pool):
            _fill(fn, pool, pending, workers)
            busy = {w.recv: w for w in pool if w.task is not None}
            done = []
            for conn in wait(list(busy)):
                w = busy[conn]
                task, w.task = w.task, None
                try:
                    done.append((task, w.recv.recv()))
                except (EOFError, OSError):
                    done.append((task, died(task, w.reason())))
                    w.stop()
                    pool.remove(w)
            # Next tasks out first: the workers simulate while the caller
            # stores these results.
            _fill(fn, pool, pending, workers)
            yield from done
    finally:
        for w in pool:
            w.stop()


def _fill(fn, pool: list, pending: deque, workers: int) -> None:
    """Give every idle worker a task, starting workers to replace dead ones."""
    failures = 0
    while pending:
        idle = next((w for w in pool if w.task is None), None)
        if idle is None:
            if len(pool) >= workers:
                return
            idle = _Worker()
            pool.append(idle)
            idle.wait_ready(time.monotonic() + _START_TIMEOUT_S)
        try:
            idle.send.send((fn, pending[0]))
        except (BrokenPipeError, OSError):  # died while idle: not the task's fault
            idle.stop()
            pool.remove(idle)
            failures += 1
        else:
            idle.task = pending.popleft()
            continue
        if failures > 3:
            raise AccelsimError("sweep worker processes keep dying before taking a task")
