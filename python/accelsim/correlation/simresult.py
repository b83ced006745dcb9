"""The simulator's side: its tidy statistics, from a result object or a saved dir.

Contract (docs/correlator.md): a result exposes ``.tidy()`` returning columns
kernel_id, kernel, stream, component, metric, value, unit, nsight_metric, and
``result.save(dir)`` writes ``tidy.parquet`` or ``tidy.csv`` (plus ``kernels.csv``).
Launch numbers count per kernel name in kernel_id order, as the profiler's do.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from accelsim.errors import ProfileError

SIM_COLUMNS = ["kernel_id", "kernel", "stream", "component", "metric", "value", "unit",
               "nsight_metric"]


def check_sim_tidy(frame: pd.DataFrame, where: str) -> pd.DataFrame:
    """The frame with its columns checked and typed; ProfileError names a missing one."""
    missing = [c for c in SIM_COLUMNS if c not in frame.columns]
    if missing:
        raise ProfileError(f"{where}: simulator statistics lack column(s) {missing}",
                           where, None, missing[0])
    out = frame.copy()
    out["value"] = pd.to_numeric(out["value"], errors="coerce")
    for column in ("component", "metric", "unit", "nsight_metric"):
        out[column] = out[column].astype("string").fillna("").astype(str)
    return out


def load_sim_tidy(directory: str | Path) -> pd.DataFrame:
    """Read a saved result dir: ``tidy.parquet`` if present, else ``tidy.csv``."""
    directory = Path(directory)
    parquet, csv = directory / "tidy.parquet", directory / "tidy.csv"
    if parquet.is_file():
        try:
            return check_sim_tidy(pd.read_parquet(parquet), str(parquet))
        except ImportError:  # no parquet engine here: the CSV copy will do if there is one
            if not csv.is_file():
                raise ProfileError(f"{parquet}: reading parquet needs pyarrow "
                                   f"(pip install pyarrow)", str(parquet)) from None
    if csv.is_file():
        frame = pd.read_csv(csv, keep_default_na=False, na_values=[""])
        return check_sim_tidy(frame, str(csv))
    raise FileNotFoundError(f"{directory}: no tidy.parquet or tidy.csv (is it a saved result?)")


def with_launches(tidy: pd.DataFrame, workload: str) -> pd.DataFrame:
    """Add ``workload`` (unless present) and ``launch`` (order per kernel name)."""
    out = tidy.copy()
    if "workload" not in out.columns:
        out["workload"] = workload
    ids = out[["workload", "kernel", "kernel_id"]].drop_duplicates().sort_values("kernel_id")
    ids["launch"] = ids.groupby(["workload", "kernel"]).cumcount()
    return out.merge(ids, on=["workload", "kernel", "kernel_id"], how="left")


def _one(item, name: str | None) -> pd.DataFrame:
    if isinstance(item, pd.DataFrame):
        return with_launches(check_sim_tidy(item, "simulator frame"), name or "sim")
    if isinstance(item, (str, Path)):
        path = Path(item)
        return with_launches(load_sim_tidy(path), name or path.resolve().name)
    if hasattr(item, "tidy"):
        label = name or getattr(item, "name", None) or "sim"
        return with_launches(check_sim_tidy(item.tidy(), str(label)), str(label))
    raise TypeError(f"simulator input must be a result, a result dir or a tidy frame, "
                    f"not {type(item).__name__}")


def sim_tidy(sim) -> pd.DataFrame:
    """Every simulator input form as one frame with workload and launch columns.

    ``sim``: a tidy frame, a result dir, a result object, a list of those, or
    ``{workload: one of those}``.
    """
    if isinstance(sim, Mapping):
        frames = [_one(item, str(name)) for name, item in sim.items()]
    elif isinstance(sim, (list, tuple)):
        frames = [_one(item, None) for item in sim]
    else:
        frames = [_one(sim, None)]
    return pd.concat(frames, ignore_index=True)


def named_rows(sim: pd.DataFrame) -> pd.DataFrame:
    """Sim rows under the names formulas use: Nsight name, and ``component:metric``."""
    keys = ["workload", "kernel", "launch", "value", "unit"]
    nsight = sim[sim["nsight_metric"] != ""][keys].assign(name=sim["nsight_metric"])
    own = sim[keys].assign(name=sim["component"] + ":" + sim["metric"])
    return pd.concat([nsight, own], ignore_index=True)
