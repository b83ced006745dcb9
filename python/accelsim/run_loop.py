"""The loop every timed run goes through (``Simulator.run`` over a trace, a PTX
``Device``'s queue): kernel by kernel with the GIL released, the core polling
for Ctrl-C and progress about every 50 ms (docs/run_control.md).

``drive(run, make_result, ...)`` works on any core run object with ``step``,
``progress``, ``interrupt`` and ``finished_kernels`` (``_core.WorkloadRun``,
``_core.PtxRun``), so both front ends get one contract: a cycle budget (given
when the run was made), ``on_progress`` (True stops the run, ``interrupted``
set), a progress bar after 2 s in a terminal or notebook, and Ctrl-C raising
``accelsim.Interrupted`` carrying the partial result.
"""
from __future__ import annotations

from typing import Any, Callable

from accelsim.errors import Interrupted

__all__ = ["drive"]


def drive(run, make_result: Callable[[], Any], *, on_progress=None, progress: bool | None = None,
          on_kernel=None, label: str = "simulating"):
    """Steps ``run`` to its end and returns ``make_result()``; on Ctrl-C (any
    KeyboardInterrupt) the run is ended where it is and ``Interrupted`` is
    raised with ``make_result()`` of that partial run."""
    from accelsim.progress import ProgressReporter, want_bar

    reporter = None
    if on_progress is not None or want_bar(progress):
        reporter = ProgressReporter(on_progress, bar=want_bar(progress), label=label)
    try:
        while run.step(reporter):
            if reporter is not None and reporter(run.progress()):
                run.interrupt()  # on_progress asked to stop
                break
            if on_kernel is not None:
                for row in run.finished_kernels():
                    on_kernel(row)
        else:
            if reporter is not None:
                reporter(run.progress())  # the final state
    except KeyboardInterrupt:
        run.interrupt()  # no-op when the core stopped itself on the signal
        raise Interrupted(make_result()) from None
    finally:
        if reporter is not None:
            reporter.close()
    return make_result()
