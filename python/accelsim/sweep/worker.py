"""A process-pool worker: ``python -m accelsim.sweep.worker READ_FD WRITE_FD``.

A fresh interpreter (not a fork, not multiprocessing's spawn), so a sweep
works from a script without a ``__main__`` guard, from a notebook, and from a
process with threads. It reads ``(function, task)`` messages from READ_FD and
answers each with the function's return value on WRITE_FD; it ends at EOF.
It ignores SIGINT: on Ctrl-C the parent decides (it stops the workers).
"""
from __future__ import annotations

import os
import pickle
import signal
import sys
from multiprocessing.connection import Connection


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    inbox = Connection(int(argv[0]), writable=False)
    outbox = Connection(int(argv[1]), readable=False)
    # Messages travel on their own pipes; a stray print goes to stderr, not
    # into the middle of the parent's own output.
    sys.stdout = sys.stderr
    import accelsim.sweep.tasks  # noqa: F401 - load the simulator before saying ready
    import accelsim.sim  # noqa: F401

    outbox.send(("ready", os.getpid()))
    while True:
        try:
            message = inbox.recv_bytes()
        except EOFError:
            return 0
        try:
            fn, task = pickle.loads(message)
            outcome = fn(task)
        except Exception as exc:  # noqa: BLE001 - run_task catches its own; a custom fn may not
            from accelsim.sweep.tasks import error_text

            outcome = {"status": "error", "error": error_text(exc)}
        outbox.send(outcome)


def _main_quietly(argv: list[str]) -> int:
    """The parent closes the pipes when it stops a sweep (Ctrl-C, an error):
    a worker caught mid-message then just ends; its traceback would land in the
    parent's stderr beside the one-line message the user should see."""
    try:
        return main(argv)
    except (BrokenPipeError, ConnectionResetError, EOFError):
        return 0


if __name__ == "__main__":
    sys.exit(_main_quietly(sys.argv[1:]))
