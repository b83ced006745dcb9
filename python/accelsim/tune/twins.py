"""The simulated twins of the hardware benchmarks, generated once and
simulated on as many configs as the tuner needs.

A twin's traces depend only on the *target* GPU's facts (SM count, cache
sizes): the same program ran on the hardware whatever the simulator's
parameters are. So the tuner writes each twin's two lengths (``reps`` and
``2 * reps``, see ``accelsim.microbench.method``) once into a work folder
and every calibration step or search point only simulates them.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from accelsim.microbench import BENCHMARKS, SUITE, HardwareDef
from accelsim.microbench.benchmark import LATENCY
from accelsim.microbench.suite import facts_from_hwdef
from accelsim.tracegen import write_workload


@dataclass(frozen=True)
class Twin:
    name: str
    unit: str
    kind: str
    paths: tuple[str, str]       # kernelslist.g of the short and the long run
    work: tuple[float, float]
    sms: int

    def value(self, cycles_short: float, cycles_long: float) -> float:
        cycles, work = cycles_long - cycles_short, self.work[1] - self.work[0]
        if cycles <= 0 or work <= 0:
            raise RuntimeError(f"{self.name}: the longer run was not slower "
                               f"({cycles_short} vs {cycles_long} cycles)")
        return cycles / work if self.kind == LATENCY else work / cycles / self.sms


class TwinSet:
    """Twins of the named benchmarks, sized for the target GPU of ``config``."""

    def __init__(self, config, names: list[str], *, reps: dict | None = None, folder=None):
        self._tmp = None
        if folder is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="accelsim-tune-")
            folder = self._tmp.name
        self.folder = Path(folder)
        self.hw = HardwareDef.from_config(config)
        facts = facts_from_hwdef(self.hw)
        self.twins: dict[str, Twin] = {}
        for name in names:
            bench = BENCHMARKS[name]
            options = SUITE[name].twin_options(facts) if name in SUITE else {}
            n = (reps or {}).get(name, bench.reps)
            built = [bench.generate(self.hw, k, **options) for k in (n, 2 * n)]
            short, long_ = (str(write_workload(self.folder / name / f"reps{k}", b.commands))
                            for k, b in zip((n, 2 * n), built))
            paths = (short, long_)
            self.twins[name] = Twin(name, bench.unit, bench.kind, paths,
                                    (built[0].work, built[1].work), built[1].sms)

    def __iter__(self):
        return iter(self.twins.values())

    def __getitem__(self, name: str) -> Twin:
        return self.twins[name]

    def simulate(self, config, names: list[str] | None = None, max_cycles: int | None = None) -> dict:
        """Each twin's value on ``config`` (serially, in this process)."""
        from accelsim.sim import Simulator

        sim = Simulator(config)
        out = {}
        for name in names or list(self.twins):
            twin = self.twins[name]
            cycles = [_kernel_cycles(sim.run(p, max_cycles=max_cycles), p) for p in twin.paths]
            out[name] = twin.value(*cycles)
        return out

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()


def _kernel_cycles(result, path) -> int:
    if not result.completed:
        raise RuntimeError(f"simulation of {path} did not finish within the cycle budget")
    k = result.kernels
    return int((k["end_cycle"] - k["start_cycle"]).sum())
