"""The statistics of kernel sampling: projections and their error bounds.

Within a cluster, a launch's cycles are modelled as ``y = r * x * (1 + e)``:
``x`` its estimated warp instructions (the profile), ``r`` the cluster's
cycles per instruction, ``e`` independent noise with relative spread
``sigma`` (two launches of one kernel differ by where their data lie in
DRAM, what the caches hold, queueing). The simulated members estimate ``r``
(the ratio estimator: sum y / sum x) and ``sigma`` (their residuals). With
two or three members a cluster's own spread is itself uncertain, so it is
pooled with the spread of all clusters (an empirical-Bayes shrinkage with
``PRIOR_DOF`` degrees of freedom of prior weight, as limma does for
per-gene variances) and the bounds use Student's t with the combined
degrees of freedom.

Per projected launch i: the 95% prediction interval
``t * sigma * r * x_i * sqrt(1 + S2 / S1^2)`` (S1, S2: sum of x and of x^2
over the simulated members: the error of the estimated ratio). For the
total: the projected launches' noise and each cluster's ratio error,
clusters independent: ``Var = sum_h r_h^2 sigma_h^2 (sum_u x_i^2 + X_u^2 S2 / S1^2)``,
and the total's bound is t (Welch-Satterthwaite degrees of freedom) times
its square root.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

PRIOR_DOF = 3
DEFAULT_SPREAD = 0.05  # used only when no cluster has two simulated members

_T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042]


def t95(dof: float) -> float:
    """Two-sided 95% quantile of Student's t (normal beyond 30 dof)."""
    if dof < 1:
        return _T95[0]
    if dof > len(_T95):
        return 1.96
    return _T95[int(dof) - 1]


@dataclass
class ClusterFit:
    ratio: float        # cycles per estimated warp instruction
    spread: float       # relative sigma (pooled with the others)
    dof: float
    s1: float           # sum of x over simulated members
    s2: float           # sum of x^2
    own_spread: float | None  # the cluster's own residual spread (None: one member)

    def predict(self, x: float) -> float:
        return self.ratio * x

    def bound(self, x: float) -> float:
        """Half-width of the 95% prediction interval of one member's cycles."""
        return t95(self.dof) * self.spread * self.ratio * x * math.sqrt(1 + self.s2 / self.s1 ** 2)

    def variance(self, xs: list[float]) -> float:
        """Variance of the sum of projected members' errors (``xs``: their x)."""
        xu = sum(xs)
        return (self.ratio * self.spread) ** 2 * (sum(x * x for x in xs) + xu * xu * self.s2 / self.s1 ** 2)


def _own(samples: list[tuple[float, float]]) -> tuple[float, float, float, float | None]:
    """(ratio, s1, s2, own relative spread) of (x, y) samples."""
    s1 = sum(x for x, _ in samples)
    s2 = sum(x * x for x, _ in samples)
    ratio = sum(y for _, y in samples) / s1 if s1 > 0 else 0.0
    if len(samples) < 2 or ratio <= 0:
        return ratio, s1, s2, None
    res = [y / (ratio * x) - 1 for x, y in samples]
    return ratio, s1, s2, math.sqrt(sum(e * e for e in res) / (len(res) - 1))


def fit(samples: dict[int, list[tuple[float, float]]]) -> tuple[dict[int, ClusterFit], float]:
    """``samples``: cluster index -> (x, cycles) of its simulated members.
    Returns the fits and the pooled spread."""
    own = {h: _own(s) for h, s in samples.items() if s}
    num = sum((len(samples[h]) - 1) * sd ** 2 for h, (_, _, _, sd) in own.items() if sd is not None)
    dof = sum(len(samples[h]) - 1 for h, (_, _, _, sd) in own.items() if sd is not None)
    pooled = math.sqrt(num / dof) if dof else DEFAULT_SPREAD
    fits = {}
    for h, (ratio, s1, s2, sd) in own.items():
        m = len(samples[h])
        mine = (m - 1) * sd ** 2 if sd is not None else 0.0
        spread = math.sqrt((PRIOR_DOF * pooled ** 2 + mine) / (PRIOR_DOF + m - 1))
        fits[h] = ClusterFit(ratio, spread, PRIOR_DOF + m - 1, s1, s2, sd)
    return fits, pooled


def total_bound(parts: list[tuple[ClusterFit, list[float]]]) -> float:
    """95% half-width of the projected total: ``parts`` = (fit, x of its
    projected members) per cluster with projected members."""
    variances = [(f.variance(xs), f.dof) for f, xs in parts if xs]
    var = sum(v for v, _ in variances)
    if var <= 0:
        return 0.0
    dof = var ** 2 / sum(v * v / d for v, d in variances if v > 0)
    return t95(dof) * math.sqrt(var)
