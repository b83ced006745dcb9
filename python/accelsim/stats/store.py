"""Saving a result as tables and reading it back.

A result folder holds: ``kernels.csv``, ``streams.csv``, ``tidy.parquet`` (or
``tidy.csv``), ``result.json`` (run facts), and under ``counters/`` the
families: ``families.json`` (dims, labels, units) and the nonzero cells of
the final totals and of the kernel table (``totals.*``, ``kernels.*``).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd


def parquet_available() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def write_table(frame: pd.DataFrame, path_stem: Path, fmt: str) -> Path:
    """``path_stem`` + .parquet or .csv; parquet falls back to CSV without pyarrow."""
    if fmt == "parquet" and parquet_available():
        path = path_stem.with_suffix(".parquet")
        frame.to_parquet(path, index=False)
    else:
        path = path_stem.with_suffix(".csv")
        frame.to_csv(path, index=False)
    return path


def read_table(path_stem: Path) -> pd.DataFrame:
    parquet, csv = path_stem.with_suffix(".parquet"), path_stem.with_suffix(".csv")
    if parquet.is_file() and parquet_available():
        return pd.read_parquet(parquet)
    if csv.is_file():
        return pd.read_csv(csv, keep_default_na=False, na_values=[""])
    raise FileNotFoundError(f"{path_stem}: neither .parquet nor .csv (is it a saved result?)")


def _cells(arrays: dict) -> pd.DataFrame:
    """Nonzero cells of {family: array} as (family, cell, value)."""
    parts = []
    for name, values in arrays.items():
        flat = np.asarray(values).reshape(-1)
        nz = np.flatnonzero(flat)
        parts.append(pd.DataFrame({"family": name, "cell": nz, "value": flat[nz]}))
    if not parts:
        return pd.DataFrame({"family": [], "cell": [], "value": []})
    return pd.concat(parts, ignore_index=True)


def save_counters(stats, directory: Path, fmt: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    names = list(stats.families())
    meta = {"stream_ids": [int(s) for s in stats.stream_ids],
            "kernel_rows": int(stats.kernel_rows),
            "families": [stats.info(n) for n in names]}
    (directory / "families.json").write_text(json.dumps(meta, indent=1))
    write_table(_cells({n: stats.counters(n) for n in names}), directory / "totals", fmt)
    write_table(_cells({n: stats.kernel_counters(n) for n in names}), directory / "kernels", fmt)


class SavedStats:
    """The counter families of a saved result, with the interface of the
    core's RunStats (families, info, counters, kernel_counters, stream_ids)."""

    def __init__(self, directory: Path):
        meta = json.loads((directory / "families.json").read_text())
        self.stream_ids = meta["stream_ids"]
        self.kernel_rows = meta["kernel_rows"]
        self._info = {f["name"]: f for f in meta["families"]}
        self._totals = self._rebuild(read_table(directory / "totals"), self._full_shape)
        self._kernels = self._rebuild(read_table(directory / "kernels"), self._kernel_shape)

    def _full_shape(self, name):
        return tuple(len(d["labels"]) for d in self._info[name]["dims"])

    def _kernel_shape(self, name):
        cats = [len(d["labels"]) for d in self._info[name]["dims"] if d["kind"] == "category"]
        return (self.kernel_rows, *cats)

    def _rebuild(self, cells: pd.DataFrame, shape_of) -> dict:
        out = {}
        for name in self._info:
            flat = np.zeros(int(np.prod(shape_of(name))), dtype=np.uint64)
            mine = cells[cells["family"] == name]
            flat[mine["cell"].to_numpy(dtype=np.int64)] = mine["value"].to_numpy(dtype=np.uint64)
            flat.setflags(write=False)
            out[name] = flat.reshape(shape_of(name))
        return out

    def families(self):
        return list(self._info)

    def info(self, name):
        if name not in self._info:
            raise KeyError(f"no counter family '{name}'")
        return self._info[name]

    def counters(self, name):
        self.info(name)
        return self._totals[name]

    def kernel_counters(self, name):
        self.info(name)
        return self._kernels[name]
