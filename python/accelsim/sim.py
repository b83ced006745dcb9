"""Run workloads on the timing model: ``Simulator(config).run(workload)``."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from accelsim import _core
from accelsim._paths import data_dir
from accelsim.errors import ConfigError
from accelsim.kernel_selection import parse_kernels
from accelsim.stats.result_api import StatsResultMixin

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
    if isinstance(config, dict):
        return dict(config), str(config.get("name", "custom"))
    raise ConfigError(f"config must be a Config, a name, a path or a dict, not {type(config).__name__}")


def _workload_path(workload) -> str:
    """kernelslist.g, a folder holding one, a single kernel trace, or an object
    with a ``path`` (e.g. what ``accelsim.open_trace`` returns)."""
    from accelsim.trace.paths import resolve_trace_path

    return str(resolve_trace_path(getattr(workload, "path", workload)))


@dataclass
class SimResult(StatsResultMixin):
    """What one run produced. ``kernels`` (a pandas DataFrame, built on first
    access) has one row per kernel (skipped ones marked ``skipped``); the
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
    _stats: object = None             # the core's RunStats (counter families)

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
            "warp_instructions": self.warp_instructions,
            "thread_instructions": self.thread_instructions,
            "wall_time_s": self.wall_time_s,
            "kernels": self.kernels.to_dict(orient="records"),
            "streams": self.streams.to_dict(orient="records"),
        }

    def __repr__(self) -> str:
        return (f"<SimResult {self.num_kernels} kernels, {self.total_cycles} cycles, "
                f"{self.warp_instructions} warp instructions{'' if self.completed else ', incomplete'}>")


class Simulator:
    """A GPU built from a config. ``run`` releases the GIL, so simulators in
    different threads run in parallel; each run starts from a fresh GPU, so
    runs are deterministic and independent."""

    def __init__(self, config=None, *, isa_dir: str | os.PathLike | None = None):
        self._values, self.config_name = _core_dict(config)
        self.config = config
        isa = Path(isa_dir) if isa_dir is not None else data_dir() / "isa"
        self._core = _core.Simulator(self._values, str(isa))

    def run(self, workload, max_cycles: int | None = None, on_kernel=None,
            kernels=None) -> SimResult:
        """Simulate ``workload`` (a kernelslist.g, a folder holding one, a kernel
        trace, or an object with a ``path``) to completion, or until the core
        clock reaches ``max_cycles`` (then ``completed`` is False).

        ``kernels``: simulate only these kernel ids (``"3,5-9"`` or a list);
        the others are skipped (rows with ``skipped`` True, no statistics).
        Kernels on different streams overlap (see the config's
        ``max_concurrent_kernels`` and ``concurrent_kernels_per_sm``).

        The GIL is released while each kernel runs; control returns to Python
        between kernels, where ``on_kernel(row)`` (a dict of that kernel's
        columns) is called for every kernel that finished, and Ctrl-C takes effect."""
        path = _workload_path(workload)
        start = time.perf_counter()
        run = self._core.start(path, max_cycles, parse_kernels(kernels))
        while run.step():
            if on_kernel is not None:
                for row in run.finished_kernels():
                    on_kernel(row)
        raw = run.result()
        wall = time.perf_counter() - start
        columns = dict(raw["kernels"])
        affected = _warn_trace_deviations(columns, path)
        return SimResult(columns=columns, total_cycles=raw["total_cycles"],
                         completed=raw["completed"], config_name=self.config_name, workload=path,
                         sm_count=raw["sm_count"], core_period_ps=raw["core_period_ps"],
                         wall_time_s=wall, extra={"trace_warnings": affected}, _stats=raw["stats"])

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


class TraceFormatWarning(UserWarning):
    """A trace deviated from the Accel-Sim format in a way that was read anyway."""
