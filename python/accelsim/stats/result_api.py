"""The statistics half of a result: shared by a fresh ``SimResult`` and a
result read back with ``load_result``. A class using it provides ``kernels``
(the kernel table) and ``_stats`` (the core's RunStats, a SavedStats, or None)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# pandas and the table builders load on first use: a result is made by every
# run, its tables only when asked for.


class FamilyNames(list):
    """The family names; calling it (the old ``result.families()`` form)
    still works, with a DeprecationWarning."""

    def __call__(self) -> list:
        import warnings

        warnings.warn("result.families is a property now (like kernels and streams); "
                      "drop the ()", DeprecationWarning, stacklevel=2)
        return list(self)


class StatsResultMixin:
    _stats: Any = None
    kernels: Any  # provided by the class using the mixin (a property or an attribute)

    @property
    def families(self) -> FamilyNames:
        """Names of the counter families (``l2.accesses``, ``dram.ops``, ...)."""
        return FamilyNames(self._stats.families() if self._stats is not None else [])

    def counters(self, name: str):
        """Final totals of a family as a read-only NumPy array with ``.dims``
        and ``.labels``; no copy: it views the simulator's own counters."""
        from accelsim.stats import frames

        self._need_stats()
        return frames.counters(self._stats, name)

    def frame(self, name: str, per_kernel: bool = False):
        """A family as a DataFrame indexed by its dimension names;
        ``per_kernel=True``: one block per kernel (its stream only)."""
        from accelsim.stats import frames

        self._need_stats()
        return frames.frame(self._stats, name, per_kernel, self.kernels["id"])

    @property
    def streams(self):
        """One row per CUDA stream: kernels, first start, last end, and the
        per-stream counters (DRAM, L2, interconnect, ...)."""
        from accelsim.stats import frames

        return frames.streams_table(self.kernels, self._stats)

    def tidy(self):
        """Long table: kernel_id, kernel, stream, component, metric, value,
        unit, nsight_metric (the correlator's input)."""
        from accelsim.stats.tidy import build_tidy

        cached = getattr(self, "_tidy_cache", None)
        if cached is None:
            cached = build_tidy(self._kernels_for_tidy(), self._stats)
            self._tidy_cache = cached
        return cached.copy()

    def _kernels_for_tidy(self):
        out = self.kernels.copy()
        if "sm_count" not in out and getattr(self, "sm_count", None):
            out["sm_count"] = self.sm_count
        return out

    def _need_stats(self):
        if self._stats is None:
            raise ValueError("this result carries no counter families")

    def _facts(self) -> dict:
        """Run facts worth keeping beside the tables (result.json)."""
        keys = ("workload", "config_name", "total_cycles", "completed", "sm_count",
                "core_period_ps", "wall_time_s")
        return {k: getattr(self, k) for k in keys if hasattr(self, k)}

    def save(self, directory, format: str = "parquet") -> Path:
        """Write the result as tables (``format``: "parquet" or "csv"; parquet
        needs pyarrow and falls back to CSV). Read back with load_result()."""
        from accelsim.stats import store

        if format not in ("parquet", "csv"):
            raise ValueError(f"format must be 'parquet' or 'csv', not {format!r}")
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        self.kernels.to_csv(d / "kernels.csv", index=False)
        self.streams.to_csv(d / "streams.csv", index=False)
        store.write_table(self.tidy(), d / "tidy", format)
        (d / "result.json").write_text(json.dumps(self._facts(), indent=1, default=str))
        if self._stats is not None:
            store.save_counters(self._stats, d / "counters", format)
        return d


class LoadedResult(StatsResultMixin):
    """A result read back from a folder written by ``save``."""

    def __init__(self, directory):
        import pandas as pd

        from accelsim.stats import store

        d = Path(directory)
        if not (d / "kernels.csv").is_file():
            raise FileNotFoundError(f"{d}: no kernels.csv (is it a saved result?)")
        self.path = d
        self.kernels = pd.read_csv(d / "kernels.csv", keep_default_na=False, na_values=[""])
        facts = d / "result.json"
        for k, v in (json.loads(facts.read_text()) if facts.is_file() else {}).items():
            setattr(self, k, v)
        self._stats = store.SavedStats(d / "counters") if (d / "counters").is_dir() else None
        self._tidy_cache = store.read_table(d / "tidy")

    @property
    def name(self) -> str:
        return self.path.resolve().name

    def __repr__(self) -> str:
        return f"<LoadedResult {self.path}: {len(self.kernels)} kernels>"


def load_result(directory) -> LoadedResult:
    """Read a result saved with ``result.save(directory)``."""
    return LoadedResult(directory)
