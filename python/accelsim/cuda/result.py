"""The runtime library's result file (format "accelsim-cuda-result",
docs/cuda_apps.md) as a SimResult: the kernel table, the copies, and the
counter families with the interface of the core's RunStats."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from accelsim.errors import AccelsimError
from accelsim.sim import SimResult
from accelsim.stats.store import SavedStats

__all__ = ["CudaResult", "read_result"]

FORMAT, VERSION = "accelsim-cuda-result", 1


class JsonStats(SavedStats):
    """Counter families from the result file's "stats" object."""

    def __init__(self, stats: dict):  # (SavedStats reads a folder; this reads the result's dict)
        self.stream_ids = stats["stream_ids"]
        self.kernel_rows = stats["kernel_rows"]
        self._info = {f["name"]: {k: f[k] for k in ("name", "component", "unit", "doc", "dims")}
                      for f in stats["families"]}
        self._totals = self._rebuild(self._cells(stats, "totals"), self._full_shape)
        self._kernels = self._rebuild(self._cells(stats, "kernels"), self._kernel_shape)

    @staticmethod
    def _cells(stats: dict, key: str) -> pd.DataFrame:
        rows = [(f["name"], c, v) for f in stats["families"] for c, v in f[key]]
        return pd.DataFrame(rows, columns=["family", "cell", "value"])


@dataclass
class CudaResult(SimResult):
    """What ``accelsim.run_cuda`` returns: a SimResult of every kernel and
    copy the program ran, plus the program's ``returncode`` (and ``stdout`` /
    ``stderr`` when captured). ``status``: ``exited`` (the program ended by
    itself), ``max_cycles`` (stopped at the cycle budget), ``wall_limit``
    (stopped at ``run_cuda``'s wall-time budget), ``interrupted`` (Ctrl-C),
    ``error`` (a simulation error, in ``error``) or
    ``unimplemented`` (a CUDA call the runtime lacks, named in ``error``)."""

    returncode: int = 0
    status: str = "exited"
    error: str = ""
    stdout: str | None = None
    stderr: str | None = None

    @property
    def copies_frame(self) -> pd.DataFrame:
        """The copies as a table (direction, address, bytes, stream, cycles, ...)."""
        return pd.DataFrame(self.copies)


def read_result(path, *, workload: str, wall_time_s: float, returncode: int,
                stdout: str | None = None, stderr: str | None = None) -> CudaResult:
    """Reads the runtime's result file; AccelsimError when it is not one."""
    try:
        d = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise AccelsimError(f"{path}: not a readable accelsim CUDA result ({e})") from None
    if d.get("format") != FORMAT or not isinstance(d.get("version"), int) or d["version"] > VERSION:
        raise AccelsimError(f"{path}: not an accelsim CUDA result of version <= {VERSION}")
    extra = {"copies": d["copies"], "runtime_wall": d["wall"], "runs": d["runs"]}
    return CudaResult(columns=d["kernels"], total_cycles=d["total_cycles"], completed=d["completed"],
                      config_name=d["config"], workload=workload, sm_count=d["sm_count"],
                      core_period_ps=d["core_period_ps"], wall_time_s=wall_time_s, extra=extra,
                      _stats=JsonStats(d["stats"]) if d.get("stats") else None,
                      interrupted=d["status"] == "interrupted", returncode=returncode, status=d["status"],
                      error=d["error"], stdout=stdout, stderr=stderr)
