"""The calibration loop: fit one integer parameter so that the simulated
twin of one microbenchmark lands on the hardware figure.

Each step simulates the twin at the current value and moves the parameter
by the error over the local slope (secant; the first step assumes a slope
of one cycle per cycle for latencies, and proportional scaling for rates).
It stops when the error is within the tolerance, when a value repeats, or
after ``max_steps``; the best value seen wins."""
from __future__ import annotations

from dataclasses import dataclass, field

from accelsim.microbench.benchmark import LATENCY
from accelsim.tune import params


@dataclass
class Fit:
    key: str
    bench: str
    target: float
    value: int = 0
    simulated: float = 0.0
    steps: list = field(default_factory=list)   # (value, simulated)

    @property
    def error_pct(self) -> float:
        return 100.0 * (self.simulated - self.target) / self.target

    def describe(self) -> str:
        tried = ", ".join(f"{v}->{s:.4g}" for v, s in self.steps)
        return (f"fit: {self.bench} = {self.simulated:.4g} vs hw {self.target:.4g} "
                f"({self.error_pct:+.1f}%); tried {tried}")


def calibrate(config, twins, key: str, bench: str, target: float, tol_pct: float, *,
              max_steps: int = 6, max_cycles: int | None = None):
    """Returns (config with the fitted value, Fit)."""
    twin = twins[bench]
    lo, hi = params.bounds(key)
    fit = Fit(key, bench, target)
    seen: dict[int, float] = {}
    x = int(params.effective(config, key))
    for _ in range(max_steps):
        cfg = params.apply(config, {key: x})
        y = twins.simulate(cfg, [bench], max_cycles=max_cycles)[bench]
        seen[x] = y
        fit.steps.append((x, y))
        if abs(100.0 * (y - target) / target) <= tol_pct / 2:
            break
        nxt = _next(seen, x, y, target, twin.kind)
        nxt = int(min(max(nxt, lo), hi))
        if nxt in seen:
            break
        x = nxt
    best = min(seen, key=lambda v: (abs(seen[v] - target), v))
    fit.value, fit.simulated = best, seen[best]
    return params.apply(config, {key: best}), fit


def _next(seen: dict, x: int, y: float, target: float, kind: str) -> int:
    others = [(v, s) for v, s in seen.items() if v != x and s != y]
    if others:  # secant through the nearest other point
        v, s = min(others, key=lambda p: abs(p[0] - x))
        slope = (y - s) / (x - v)
        if slope != 0:
            return round(x + (target - y) / slope)
    if kind == LATENCY:
        return round(x + (target - y))
    return round(x * target / y) if y else x * 2
