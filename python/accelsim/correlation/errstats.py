"""Error metrics between hardware (reference) and simulator values.

* MAE: mean absolute percentage error, mean(|sim - hw| / hw) x 100, for counters
  that are never zero (cycles, instructions, IPC). Points with hw == 0 have no
  percentage error and are left out (``n_used`` says how many were used).
* NRMSE: sqrt(mean((sim - hw)^2)) / mean(hw) x 100, for counters that can be
  zero. If hw and sim are all zero the error is 0; if mean(hw) is 0 otherwise,
  it is undefined (NaN).
* Pearson correlation of hw and sim; NaN with fewer than two points or when
  either side is constant.
"""
from __future__ import annotations

import numpy as np


def mae(hw, sim) -> float:
    hw, sim = np.asarray(hw, float), np.asarray(sim, float)
    keep = hw != 0
    if not keep.any():
        return float("nan")
    return float(np.mean(np.abs(sim[keep] - hw[keep]) / np.abs(hw[keep])) * 100.0)


def nrmse(hw, sim) -> float:
    hw, sim = np.asarray(hw, float), np.asarray(sim, float)
    if hw.size == 0:
        return float("nan")
    rmse = float(np.sqrt(np.mean((sim - hw) ** 2)))
    scale = float(np.mean(hw))
    if scale == 0:
        return 0.0 if rmse == 0 else float("nan")
    return rmse / abs(scale) * 100.0


def pearson(hw, sim) -> float:
    hw, sim = np.asarray(hw, float), np.asarray(sim, float)
    if hw.size < 2 or np.std(hw) == 0 or np.std(sim) == 0:
        return float("nan")
    return float(np.corrcoef(hw, sim)[0, 1])


def error_of(kind: str, hw, sim) -> float:
    """The counter's error metric by its map ``error`` kind."""
    return mae(hw, sim) if kind == "mae" else nrmse(hw, sim)


def point_error_pct(hw, sim, kind: str):
    """Signed per-point error in %, for ranking outliers.

    Relative to the point's hw value; for NRMSE counters a zero hw value is
    scaled by the counter's mean hw instead, so zero-valued points still rank.
    """
    hw, sim = np.asarray(hw, float), np.asarray(sim, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(hw != 0, (sim - hw) / np.abs(hw) * 100.0, np.nan)
        if kind == "nrmse" and hw.size:
            scale = np.mean(np.abs(hw))
            fallback = (sim - hw) / scale * 100.0 if scale else np.where(sim == 0, 0.0, np.nan)
            out = np.where(hw == 0, fallback, out)
    return out
