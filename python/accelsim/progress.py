"""Progress of a run: what ``Simulator.run(..., on_progress=f)`` hands to ``f``,
and the progress bar a long run shows in a terminal or a notebook.

Both are fed by the poll the core already makes for Ctrl-C (about every 50 ms of
wall time, from inside the run loop, never per cycle) and once after each step
(kernel boundary), so they add no per-cycle cost. The bar is tqdm's (it handles
terminals and notebooks, widths and rate formatting); it is made only once a run
has lasted BAR_DELAY_S, so a short run stays silent.
"""
from __future__ import annotations

import importlib.util
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

__all__ = ["Progress", "ProgressReporter"]

BAR_DELAY_S = 2.0  # a run shorter than this shows no bar


@dataclass(frozen=True)
class Progress:
    """A snapshot of a run in progress."""

    kernels_done: int        # finished, cut off or passed over (not selected)
    kernels_total: int       # kernels in the workload
    cycles: int              # core clock now
    warp_instructions: int   # issued so far, all kernels
    elapsed_s: float         # wall time since the run started
    copying: bool = False    # inside a host-to-device copy
    ctas_done: int = 0       # CTAs (thread blocks) finished, of the kernels in flight
    ctas_total: int = 0      # CTAs in all, of the kernels in flight

    @property
    def warp_instructions_per_s(self) -> float:
        return self.warp_instructions / self.elapsed_s if self.elapsed_s > 0 else 0.0

    @property
    def cycles_per_s(self) -> float:
        return self.cycles / self.elapsed_s if self.elapsed_s > 0 else 0.0


def _in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    ip = shell.get_ipython() if shell is not None and hasattr(shell, "get_ipython") else None
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"


def want_bar(progress) -> bool:
    """``progress``: True / False, or None for automatic: on in a terminal
    (stderr is a TTY) or a notebook, from the main thread only (runs in worker
    threads, e.g. sweeps, would draw over each other)."""
    if progress is not None:
        return bool(progress)
    if threading.current_thread() is not threading.main_thread():
        return False
    return _in_notebook() or (hasattr(sys.stderr, "isatty") and sys.stderr.isatty())


def _tqdm_class():
    # The notebook widget needs ipywidgets; without it tqdm.auto warns and
    # falls back to text, so pick text directly.
    if _in_notebook() and importlib.util.find_spec("ipywidgets") is not None:
        from tqdm.auto import tqdm
    else:
        from tqdm import tqdm
    return tqdm


class ProgressReporter:
    """Turns the core's progress dicts into Progress, for a callback and/or a
    bar; ``__call__`` is the ``on_poll`` the core calls."""

    def __init__(self, on_progress=None, bar: bool = False, label: str = "simulating"):
        self.on_progress = on_progress
        self.start = time.perf_counter()
        self.last: Progress | None = None
        self._want_bar = bar
        self._label = label
        self._bar: Any = None  # made on the first draw after BAR_DELAY_S: short runs import no tqdm

    def __call__(self, raw: dict) -> bool:
        """True (from on_progress) asks the core to stop the run."""
        p = Progress(kernels_done=int(raw["kernels_done"]), kernels_total=int(raw["kernels_total"]),
                     cycles=int(raw["cycles"]), warp_instructions=int(raw["warp_instructions"]),
                     elapsed_s=time.perf_counter() - self.start, copying=bool(raw.get("copying")),
                     ctas_done=int(raw.get("ctas_done", 0)), ctas_total=int(raw.get("ctas_total", 0)))
        self.last = p
        if self._want_bar and p.elapsed_s >= BAR_DELAY_S:
            self._draw(p)
        return self.on_progress is not None and self.on_progress(p) is True

    def _draw(self, p: Progress) -> None:
        """A workload of one kernel counts its CTAs (thread blocks) finished,
        so the bar moves inside the kernel; one of several counts kernels and
        shows the CTAs of those in flight beside the rate."""
        in_kernel = p.kernels_total == 1 and p.ctas_total > 0 and p.kernels_done == 0
        total, done, unit = ((p.ctas_total, p.ctas_done, " CTA") if in_kernel
                             else (p.kernels_total, p.kernels_done, " kernel"))
        if self._bar is None or self._bar.unit != unit:
            if self._bar is not None:
                self._bar.close()
            self._bar = _tqdm_class()(total=total, desc=self._label, unit=unit,
                                      leave=False, file=sys.stderr, dynamic_ncols=True)
            self._bar.start_t -= p.elapsed_s  # its clock counts from the run's start
        bar = self._bar
        if bar.total != total:
            bar.total = total
        bar.n = done
        what = "copying" if p.copying else f"{p.warp_instructions_per_s / 1e6:.2f} M warp inst/s"
        ctas = f", CTAs {p.ctas_done:,}/{p.ctas_total:,}" if p.ctas_total and not in_kernel else ""
        bar.set_postfix_str(f"cycle {p.cycles:,}{ctas}, {what}", refresh=False)
        bar.refresh()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
