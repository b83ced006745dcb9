"""What a microbenchmark is: a generator of its trace at a chosen length,
plus how to turn two simulated lengths into the reported number."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

LATENCY = "latency"  # cycles per unit of timed work (one dependent step)
RATE = "rate"        # units of timed work per cycle (bytes, flops)


@dataclass
class Built:
    """One generated workload. ``work`` counts what the *timed* part does
    (dependent steps, bytes, flops); ``sms`` is how many SMs it runs on, by
    which a per-SM rate is divided."""

    commands: list
    work: float
    sms: int = 1


@dataclass(frozen=True)
class Benchmark:
    name: str
    unit: str
    kind: str
    build: Callable[..., Built]  # build(hw, reps, **options)
    description: str
    reps: int                    # timed repetitions of the shorter run; the longer has 2x
    options: dict = field(default_factory=dict)  # default sizes; run() may override
    # one run of ``reps``, its work over its cycles: a benchmark that reports
    # a single timed pass, start-up and all (method.measure)
    single_run: bool = False

    def generate(self, hw, reps: int | None = None, **options) -> Built:
        opts = {**self.options, **options}
        return self.build(hw, self.reps if reps is None else reps, **opts)
