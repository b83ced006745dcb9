"""Counter families of one result assembled from several runs (a workload
split over processes, the rounds of a sampled run), with the interface of
the core's RunStats (``families``, ``info``, ``counters``,
``kernel_counters``, ``stream_ids``, ``kernel_rows``) so every table and
plot works on it unchanged.

A run's families travel as plain NumPy arrays (``export_stats``); totals of
runs over disjoint work add up exactly (counts are integers), and the
per-kernel table is the chosen rows of each run, in the result's kernel order.
"""
from __future__ import annotations

import numpy as np


def export_stats(stats) -> dict:
    """A RunStats (or anything with its interface) as picklable arrays."""
    names = list(stats.families())
    return {"stream_ids": [int(s) for s in stats.stream_ids],
            "info": {n: stats.info(n) for n in names},
            "totals": {n: np.array(stats.counters(n), dtype=np.uint64) for n in names},
            "kernels": {n: np.array(stats.kernel_counters(n), dtype=np.uint64) for n in names}}


class MergedStats:
    """Families summed over parts; kernel rows picked from them."""

    def __init__(self, parts: list[dict], rows: list[tuple[int, int]]):
        """``parts``: exported stats of runs of the same config and workload
        (same families and stream slots); ``rows``: for each kernel of the
        result, (part, row in that part's kernel table), or (-1, 0) for a
        kernel no part simulated (all zero)."""
        if not parts:
            raise ValueError("nothing to merge")
        first = parts[0]
        for p in parts[1:]:
            if list(p["info"]) != list(first["info"]) or p["stream_ids"] != first["stream_ids"]:
                raise ValueError("runs with different counter families or streams cannot be merged")
        self.stream_ids = list(first["stream_ids"])
        self.kernel_rows = len(rows)
        self._info = dict(first["info"])
        self._totals = {n: self._frozen(sum((p["totals"][n] for p in parts[1:]), first["totals"][n].copy()))
                        for n in self._info}
        self._kernels = {n: self._frozen(self._pick(parts, n, rows)) for n in self._info}

    @staticmethod
    def _frozen(a: np.ndarray) -> np.ndarray:
        a = np.asarray(a, dtype=np.uint64)
        a.setflags(write=False)
        return a

    @staticmethod
    def _pick(parts: list[dict], name: str, rows: list[tuple[int, int]]) -> np.ndarray:
        shape = parts[0]["kernels"][name].shape[1:]
        out = np.zeros((len(rows), *shape), dtype=np.uint64)
        for i, (part, row) in enumerate(rows):
            if part >= 0:
                out[i] = parts[part]["kernels"][name][row]
        return out

    def families(self) -> list:
        return list(self._info)

    def info(self, name: str) -> dict:
        if name not in self._info:
            raise KeyError(f"no counter family '{name}'")
        return self._info[name]

    def counters(self, name: str) -> np.ndarray:
        self.info(name)
        return self._totals[name]

    def kernel_counters(self, name: str) -> np.ndarray:
        self.info(name)
        return self._kernels[name]
