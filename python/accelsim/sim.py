"""Run workloads on the timing model: ``Simulator(config).run(workload)``."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from accelsim import _args, _core
from accelsim._paths import data_dir
from accelsim.errors import ConfigError, TraceFormatWarning
from accelsim.stats.result_api import StatsResultMixin
from accelsim.stats.streams import stream_rows

__all__ = ["SimResult", "Simulator"]


def _core_dict(config) -> tuple[dict, str]:
    """Canonical values for the C++ core and a display name."""
    from accelsim.config import Config, load_config

    if config is None:
        return {}, "default"
    if isinstance(config, Config):
        return config.core_dict(), config.name
    if isinstance(config, (str, os.PathLike)):
        cfg = load_config(config)
        return cfg.core_dict(), cfg.name
    if isinstance(config, dict):  # checked like a YAML file: unknown keys, types, ranges
        name = str(config.get("name", "custom"))
        entries = {k: v for k, v in config.items() if k not in ("name", "description")}
        return Config.from_entries(entries, name).core_dict(), name
    raise ConfigError(f"config must be a Config, a name, a path or a dict, not {type(config).__name__}")


def _workload_path(workload) -> str:
    """kernelslist.g, a folder holding one, a single kernel trace, or an object
    with a ``path`` (e.g. what ``accelsim.open_trace`` returns)."""
    from accelsim.trace.paths import resolve_trace_path

    return str(resolve_trace_path(getattr(workload, "path", workload)))


def _core_options(flush, intra) -> dict:
    """The run options the core takes (flush, intra-kernel sampling)."""
    if not isinstance(flush, bool):
        raise ConfigError(f"flush must be True or False, got {flush!r}", key="flush")
    options: dict = {"flush": True} if flush else {}
    if intra is not None:
        options["intra"] = intra.core_options()
    return options


def _check_split_arguments(budget, ids, kernel_sampling, on_kernel, on_progress) -> None:
    """What a run split over units or sampled cannot honour as a single run
    would: a cycle budget (its cut would fall at another place in each
    piece), per-kernel hooks, and a kernel selection with sampling."""
    what = "kernel sampling" if kernel_sampling is not None else "engine="
    if budget is not None:
        raise ConfigError(f"max_cycles cannot be combined with {what}: the pieces of the run are "
                          "simulated apart, so a budget cannot stop them at one cycle", key="max_cycles")
    if on_kernel is not None or on_progress is not None:
        raise ConfigError(f"on_kernel and on_progress are not called with {what}", key="on_kernel")
    if kernel_sampling is not None and ids is not None:
        raise ConfigError("kernels= cannot be combined with kernel sampling (it chooses the kernels "
                          "to simulate)", key="kernels")


def _checked_run_arguments(sim: "Simulator", path: str, max_cycles, kernels):
    """What crosses into the core, checked first (a ConfigError naming the
    argument, never a cast error), and the workload checked (kernelslist,
    architecture): the budget, and the ids of the selected kernels that exist
    (a selection is kept as ranges until then)."""
    from accelsim import workload_check
    from accelsim.kernel_selection import parse_selection

    budget = _args.max_cycles(max_cycles)
    ids = workload_check.prepare(path, parse_selection(kernels), sim.config_name,
                                 int(sim._values.get("sm_version", 0)))
    return budget, ids


@dataclass
class SimResult(StatsResultMixin):
    """What one run produced. ``kernels`` (a pandas DataFrame, built on first
    access) has one row per kernel of the workload, its ``status`` one of
    ``simulated``, ``cut_off``, ``not_reached``, ``not_selected`` (the last two
    also ``skipped``: never simulated, no statistics); the
    statistics API (``streams``, ``counters``, ``frame``, ``tidy``, ``save``)
    comes from StatsResultMixin."""

    columns: dict                     # per-kernel columns as the core returned them
    total_cycles: int
    completed: bool
    config_name: str
    workload: str
    sm_count: int
    core_period_ps: int
    wall_time_s: float
    extra: dict = field(default_factory=dict)
    _stats: Any = None                # the core's RunStats (counter families)
    interrupted: bool = False         # Ctrl-C stopped the run (completed is False too)

    @property
    def name(self) -> str:
        return Path(self.workload).parent.name if self.workload else "sim"

    @property
    def trace_warnings(self) -> dict:
        """{kernel id: what its trace had that the format does not allow but
        was read anyway} for the kernels affected (empty when none)."""
        return dict(self.extra.get("trace_warnings", {}))

    @property
    def kernels(self):
        if "_kernels" not in self.extra:
            import pandas as pd

            frame = pd.DataFrame(self.columns)
            if "cycles" in frame:  # at the core clock, as the profiler's kernel duration
                frame["duration_ns"] = frame["cycles"] * (self.core_period_ps / 1000.0)
            self.extra["_kernels"] = frame
        return self.extra["_kernels"]

    @property
    def copies(self) -> list[dict]:
        """The copies the run timed, in command order: ``direction`` ("HtoD"
        or "DtoH"), ``address``, ``bytes``, ``stream`` (None: synchronous),
        ``start_cycle``, ``end_cycle``, ``cycles``, ``completed``."""
        return list(self.extra.get("copies", []))

    @property
    def num_kernels(self) -> int:
        return len(self.columns["id"])

    @property
    def warp_instructions(self) -> int:
        return int(sum(self.columns["warp_instructions"]))

    @property
    def thread_instructions(self) -> int:
        return int(sum(self.columns["thread_instructions"]))

    @property
    def simulated_time_s(self) -> float:
        return self.total_cycles * self.core_period_ps * 1e-12

    def to_dict(self) -> dict:
        """Plain JSON-friendly form."""
        return {
            "workload": self.workload,
            "config": self.config_name,
            "total_cycles": int(self.total_cycles),
            "completed": bool(self.completed),
            "interrupted": bool(self.interrupted),
            "warp_instructions": self.warp_instructions,
            "thread_instructions": self.thread_instructions,
            "wall_time_s": self.wall_time_s,
            "kernels": self.kernel_rows(),
            "streams": stream_rows(self.columns, self._stats),
        }

    def kernel_rows(self) -> list[dict]:
        """The kernel table as plain dicts (as ``kernels``, without pandas)."""
        names = list(self.columns)
        rows = [dict(zip(names, values)) for values in zip(*self.columns.values())]
        if "cycles" in self.columns:
            for row in rows:
                row["duration_ns"] = row["cycles"] * (self.core_period_ps / 1000.0)
        return rows

    def __repr__(self) -> str:
        state = "" if self.completed else ", interrupted" if self.interrupted else ", incomplete"
        return (f"<SimResult {self.num_kernels} kernels, {self.total_cycles} cycles, "
                f"{self.warp_instructions} warp instructions{state}>")


class Simulator:
    """A GPU built from a config. ``run`` releases the GIL, so simulators in
    different threads run in parallel; each run starts from a fresh GPU, so
    runs are deterministic and independent."""

    def __init__(self, config=None, *, isa_dir: str | os.PathLike | None = None):
        self._values, self.config_name = _core_dict(config)
        self.config = config
        isa = Path(isa_dir) if isa_dir is not None else data_dir() / "isa"
        self._isa = str(isa)
        self._core = _core.Simulator(self._values, self._isa)
        self._resolved: dict | None = None

    # What a front end that builds its own runs (accelsim.ptx.Device) needs.
    def param(self, key: str):
        """Config entry ``key`` as this simulator's GPU has it, defaults
        included (canonical units: bytes, cycles, MHz)."""
        if self._resolved is None:
            self._resolved = self._core.config()
        if key not in self._resolved:
            raise ConfigError(f"unknown config key {key!r}", key=key)
        return self._resolved[key]

    @property
    def sm_count(self) -> int:
        return int(self.param("sm_count"))

    @property
    def opcode_units(self) -> dict[str, str]:
        """The config's opcode -> execution unit overrides (the unit table
        PTX mode's records are mapped with, as the SASS path maps its own)."""
        return dict(self.param("opcode_units") or {})

    def session(self, max_streams: int = 32) -> "_core.GpuSession":
        """A GPU of this config kept across runs (a Device's GPU)."""
        return self._core.session(max_streams)

    def run(self, workload, max_cycles: int | None = None, on_kernel=None,
            kernels=None, on_progress=None, progress: bool | None = None,
            threads: int | None = None, *, flush: bool = False, sample=None, engine=None,
            workers: int | None = None, units: int | None = None, warmup: int = 1) -> SimResult:
        """Simulate ``workload`` (a kernelslist.g, a folder holding one, a kernel
        trace, or an object with a ``path``) to completion, or until the core
        clock reaches ``max_cycles`` (then ``completed`` is False). The budget
        holds at any point of the run, inside kernels and copies alike.

        ``kernels``: simulate only these kernel ids (``"3,5-9"`` or a list);
        the others are skipped (rows with ``skipped`` True, no statistics).
        Kernels on different streams overlap (see the config's
        ``max_concurrent_kernels`` and ``concurrent_kernels_per_sm``).
        Each row's ``status`` says what became of the kernel: ``simulated``,
        ``cut_off`` (stopped by the budget or Ctrl-C: partial counts),
        ``not_reached`` (the run ended before it) or ``not_selected``.

        The GIL is released while the core runs. About every 50 ms it handles
        signals: Ctrl-C (or any KeyboardInterrupt) stops the run within a
        fraction of a second and raises ``accelsim.Interrupted`` (a
        KeyboardInterrupt) whose ``result`` is what was simulated so far.
        ``on_progress(accelsim.Progress)`` is called from the same poll and
        after each kernel; if it returns True the run stops there (no exception;
        the result has ``interrupted`` True). ``progress`` shows a bar once a run has taken 2 s
        (None: in a terminal or notebook, from the main thread).
        ``on_kernel(row)`` (a dict of that kernel's columns) is called for every
        kernel that finished, between kernels.

        ``threads``: threads simulating this GPU (default: the config's
        ``threads``; 0 = the cores the process may use that other work leaves
        idle, backing off to one while that is faster). The result is the
        same, bit for bit, for every value (docs/parallel.md).

        ``flush``: every kernel and copy starts on a GPU in its power-on
        state (caches empty, DRAM rows closed), one at a time, as Nsight
        Compute measures kernels; each command's numbers are then independent
        of the others.

        ``sample``: ``accelsim.KernelSampling(...)`` simulates a few launches
        of each group of similar kernels and projects the rest (rows say
        ``simulated`` or ``projected``, with ``representative`` and
        ``error_bound``); ``accelsim.IntraKernelSampling(...)`` stops long
        kernels once their CTA waves are steady (status ``sampled``); a list
        of both does both. See docs/sampling.md.

        ``engine``: ``"process"``, ``"dask"``, ``"serial"`` or a
        ``distributed.Client``: the workload is split into ``units``
        (default: 2 per worker) of consecutive commands run on ``workers``
        processes and merged into one result in kernel order. Without
        ``flush`` each unit starts after ``warmup`` kernels of the unit before
        it, simulated to warm the caches and not counted; with ``flush`` the
        merged result equals the serial one, bit for bit (docs/sampling.md)."""
        from accelsim.run_modes import runner, split_sample

        path = _workload_path(workload)
        budget, ids = _checked_run_arguments(self, path, max_cycles, kernels)
        kernel_sampling, intra = split_sample(sample)
        options = _core_options(flush, intra)
        if kernel_sampling is not None or engine is not None:
            _check_split_arguments(budget, ids, kernel_sampling, on_kernel, on_progress)
        if kernel_sampling is not None:
            return runner("kernel_sampling")(self, path, kernel_sampling, options, engine=engine,
                                             workers=workers, threads=threads, progress=progress)
        if engine is not None:
            return runner("split")(self, path, options, ids, engine=engine, workers=workers, units=units,
                                   warmup=warmup, threads=threads)
        return self._run_path(path, budget, ids, options, on_kernel=on_kernel, on_progress=on_progress,
                              progress=progress, threads=threads)

    def _run_path(self, path: str, budget, ids, options: dict | None, *, on_kernel=None,
                  on_progress=None, progress: bool | None = None, threads: int | None = None) -> SimResult:
        """One run on this process's GPU: ``options`` go to the core as they
        are (see ``_core.Simulator.start``)."""
        from accelsim.run_loop import drive

        start = time.perf_counter()
        core = self._core if threads is None else self._with_threads(threads)
        run = core.start(path, budget, ids, options or None)  # ids: already the selected kernels that exist
        return drive(run, lambda: self._result(run, path, start), on_progress=on_progress, progress=progress,
                     on_kernel=on_kernel)

    def _result(self, run, path: str, start: float) -> SimResult:
        raw = run.result()
        wall = time.perf_counter() - start
        columns = dict(raw["kernels"])
        affected = _warn_trace_deviations(columns, path)
        return SimResult(columns=columns, total_cycles=raw["total_cycles"],
                         completed=raw["completed"], config_name=self.config_name, workload=path,
                         sm_count=raw["sm_count"], core_period_ps=raw["core_period_ps"],
                         wall_time_s=wall, extra={"trace_warnings": affected,
                                                  "copies": list(raw.get("copies", []))}, _stats=raw["stats"],
                         interrupted=raw.get("interrupted", False))

    def _with_threads(self, threads) -> "_core.Simulator":
        if isinstance(threads, bool) or not isinstance(threads, int) or not 0 <= threads <= 1024:
            raise ConfigError(f"threads: expected an integer from 0 to 1024, got {threads!r}",
                              key="threads")
        return _core.Simulator({**self._values, "threads": threads}, self._isa)

    def __repr__(self) -> str:
        return f"<Simulator config={self.config_name}>"


def _warn_trace_deviations(columns: dict, workload: str) -> dict:
    """Kernels whose traces were read despite deviating from the format
    (extra trailing fields, repeated EXIT lanes): one warning per kernel
    file, naming it; returns {kernel id: what}."""
    import warnings

    texts = columns.pop("trace_warnings", None)
    if texts is None:
        return {}
    affected = {int(k): t for k, t in zip(columns["id"], texts) if t}
    for kid, text in affected.items():
        warnings.warn(f"{workload}: kernel {kid}: {text}", TraceFormatWarning, stacklevel=3)
    return affected

