"""A config against the figures measured on its card: each figure's
microbenchmark twin is simulated on the config (at the clock the card was
measured at) and set beside the measured value.

    from accelsim.microbench import fidelity
    report = fidelity.validate("A100")
    print(report.table())
    report.outside(10.0)          # rows more than 10 % off (known gaps excluded)

Besides the published figures, the L2 bandwidth and DRAM latency twins run
on every config (what `config check` lists even for a card without figures).
Results are cached per (config, twin, options) in the process: the twins are
deterministic.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from functools import lru_cache

from accelsim.microbench.published import LAUNCH, CardFigures, Figure, figures_for

#: Twins listed for every config (simulated only, when the card has no figure).
ALWAYS = ("l2_lat", "dram_lat", "l2_bw", "dram_bw")
#: Within this error a figure is "ok", within TOLERANCE_PCT "fair" (the goal and the bound).
GOAL_PCT, TOLERANCE_PCT = 5.0, 10.0


@dataclass
class FidelityRow:
    quantity: str
    simulated: float
    measured: float | None
    unit: str
    figure: Figure | None = None

    @property
    def error_pct(self) -> float | None:
        if self.measured in (None, 0):
            return None
        return 100.0 * (self.simulated - self.measured) / self.measured

    @property
    def status(self) -> str:
        err = self.error_pct
        if err is None:
            return "simulated only"
        if abs(err) <= GOAL_PCT:
            return "ok"
        if abs(err) <= TOLERANCE_PCT:
            return "within 10%"
        return "known gap" if self.figure and self.figure.known_gap else "OFF"


@dataclass
class FidelityReport:
    config: str
    card: CardFigures | None
    rows: list[FidelityRow] = field(default_factory=list)

    def outside(self, pct: float = TOLERANCE_PCT, *, known_gaps: bool = False) -> list[FidelityRow]:
        """Rows with a measured figure more than ``pct`` percent off (by
        default not those whose figure names a known gap)."""
        return [r for r in self.rows if r.error_pct is not None and abs(r.error_pct) > pct
                and (known_gaps or not (r.figure and r.figure.known_gap))]

    def to_frame(self):
        """One row per twin: config, twin, scope, simulated, measured, error_pct,
        unit, status, source, where."""
        import pandas as pd

        return pd.DataFrame([{"config": self.config, "twin": r.quantity,
                              "scope": r.figure.scope if r.figure else "memory",
                              "simulated": r.simulated, "measured": r.measured,
                              "error_pct": r.error_pct, "unit": r.unit, "status": r.status,
                              "source": r.figure.source if r.figure else "",
                              "where": r.figure.where if r.figure else ""} for r in self.rows])

    def table(self) -> str:
        lines = [f"{'twin':<14}{'simulated':>11}{'measured':>11}{'error':>9}  {'unit':<9} status / source"]
        for r in self.rows:
            meas = "-" if r.measured is None else f"{r.measured:,.1f}"
            err = "" if r.error_pct is None else f"{r.error_pct:+.1f}%"
            src = f"  [{r.figure.source}: {r.figure.where}]" if r.figure else ""
            lines.append(f"{r.quantity:<14}{r.simulated:>11,.1f}{meas:>11}{err:>9}  {r.unit:<9} "
                         f"{r.status}{src}")
        return "\n".join(lines)


def validate(config, *, card: str | None = None, quick: bool = True,
             always: tuple[str, ...] = ALWAYS) -> FidelityReport:
    """Simulates the twin of every figure measured on ``card`` (default: the
    config's own card) and of the ``always`` twins on ``config``. ``quick``
    shortens the bandwidth twins (fewer repetitions, a smaller L2-resident
    buffer); the rates it gives are within about 1 % of the full lengths."""
    from accelsim.config import Config, load_config

    cfg = config if isinstance(config, Config) else load_config(config)
    figs = figures_for(card or cfg.name)
    report = FidelityReport(cfg.name, figs)
    run_cfg = at_clock(cfg, figs.clock_mhz) if figs and figs.clock_mhz else cfg
    listed = set()
    for f in figs.figures if figs else ():
        report.rows.append(FidelityRow(f.quantity, simulate(run_cfg, f.quantity, f.options, f.unit, quick),
                                       f.value, f.unit, f))
        listed.add(f.quantity)
    for name in always:
        if name not in listed:
            unit = _twin_unit(name)
            report.rows.append(FidelityRow(name, simulate(run_cfg, name, {}, unit, quick), None, unit))
    return report


def at_clock(cfg, mhz: float):
    """``cfg`` with its core clock set to ``mhz`` and the interconnect and L2
    clocks scaled with it (the card ran at another clock than the config's)."""
    ratio = mhz / float(cfg.core_clock)
    return cfg.with_overrides({"core_clock": f"{mhz} MHz",
                               "icnt_clock": f"{float(cfg.icnt_clock) * ratio} MHz",
                               "l2_clock": f"{float(cfg.l2_clock) * ratio} MHz"})


def _twin_unit(name: str) -> str:
    from accelsim.microbench.suite import BENCHMARKS

    return BENCHMARKS[name].unit


#: Shorter bandwidth twins for validation: the rate is a steady-state
#: difference of two lengths, so 4 repetitions and an L2-resident buffer of
#: 4 grid sweeps suffice (within 1 % of 16 repetitions on V100_SXM2; the
#: full lengths only cost time).
QUICK = {"l2_bw": {"reps": 4, "footprint_sweeps": 4}, "dram_bw": {"reps": 4}}
#: Quick GPU-wide bandwidth twins run on 1/k of the GPU (SMs, memory
#: partitions and L2 size divided by k, every ratio kept) and report k times
#: its rate: a slice and a channel serve the same traffic mix either way.
#: Only with virtual output queues in the crossbar (icnt_input_lanes > 1):
#: head-of-line blocking in FIFO inputs grows with the port count, so a
#: scaled-down GPU would move more per slice than the whole one.
MAX_SCALE = 8


def scale_factor(cfg) -> int:
    """The largest k <= MAX_SCALE dividing the partition count that leaves
    at least 2 partitions (4 with a split L2: 2 per half). The SM count is
    divided by k and rounded: the slices and channels, which the bandwidth
    twins saturate, are what must scale exactly."""
    parts = int(cfg.memory_partitions)
    least = 4 if int(cfg.l2_far_latency) else 2
    if int(cfg.icnt_input_lanes) < 2:
        return 1
    for k in range(MAX_SCALE, 1, -1):
        if parts % k == 0 and parts // k >= least and int(cfg.sm_count) >= k:
            return k
    return 1


def scaled(cfg, k: int):
    """``cfg`` with 1/k of its memory partitions and L2, and about 1/k of its SMs."""
    if k == 1:
        return cfg
    return cfg.with_overrides({"sm_count": max(1, round(int(cfg.sm_count) / k)),
                               "memory_partitions": int(cfg.memory_partitions) // k,
                               "l2_size": int(cfg.l2_size) // k})


def simulate(cfg, quantity: str, options: dict, unit: str, quick: bool = True) -> float:
    """The twin's value on ``cfg``, converted to ``unit`` (GB/s from B/clk at
    the config's core clock)."""
    if quantity == LAUNCH:
        return float(cfg.kernel_launch_latency)
    value = _simulate(cfg, quantity, tuple(sorted(options.items())), quick)
    twin_unit = _twin_unit(quantity)
    if unit == twin_unit:
        return value
    if unit == "GB/s" and twin_unit == "B/clk":
        return value * float(cfg.core_clock) / 1000.0
    raise ValueError(f"{quantity}: cannot report {twin_unit} as {unit}")


@lru_cache(maxsize=512)
def _simulate(cfg, quantity: str, options: tuple, quick: bool) -> float:
    from accelsim.microbench.hwdef import HardwareDef
    from accelsim.microbench.method import measure
    from accelsim.microbench.suite import get
    from accelsim.sim import Simulator

    bench = get(quantity)
    opts = dict(options)
    reps = None
    k = scale_factor(cfg) if quick and bench.unit == "B/clk" else 1
    cfg = scaled(cfg, k)
    if quick and quantity in QUICK:
        q = dict(QUICK[quantity])
        reps = q.pop("reps", None)
        sweeps = q.pop("footprint_sweeps", None)
        if sweeps and "footprint" not in opts:
            hw = HardwareDef.from_config(cfg)
            threads = opts.get("threads", 256) * opts.get("ctas_per_sm", 1) * hw.sm_count
            opts["footprint"] = sweeps * threads * opts.get("width", 16)
    with warnings.catch_warnings():
        # The twins are sm_70 SASS on every config: their timing, not their ISA, is the point.
        warnings.filterwarnings("ignore", message=".*trace made for sm_")
        value, _ = measure(bench, Simulator(cfg), HardwareDef.from_config(cfg), reps, **opts)
    return value * k
