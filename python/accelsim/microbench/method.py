"""How a number is taken from the simulator: the two-length difference.

A kernel's cycle count includes things the benchmark does not want: the
launch, the prologue, the warm-up pass, pipeline fill and the drain of the
last results. The hardware benchmarks exclude them with clock() around the
timed loop; a trace cannot read a clock, so instead each benchmark is
simulated twice, with ``reps`` and ``2 * reps`` timed repetitions and
everything else identical. The difference of the two kernels' cycles is
the cost of ``reps`` extra steady-state repetitions, and the difference of
their work is what those repetitions did:

    latency = (cycles_2n - cycles_n) / (steps_2n - steps_n)      cycles per step
    rate    = (work_2n - work_n) / (cycles_2n - cycles_n) / SMs  work per cycle
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from accelsim.microbench.benchmark import LATENCY, Benchmark, Built
from accelsim.tracegen import write_workload


def kernel_cycles(result) -> int:
    """Execution cycles of the workload's kernels: first CTA start to last
    CTA retirement, launch latency excluded (it cancels anyway)."""
    k = result.kernels
    return int((k["end_cycle"] - k["start_cycle"]).sum())


def simulate(simulator, built: Built, folder: Path) -> int:
    listing = write_workload(folder, built.commands)
    result = simulator.run(listing)
    if not result.completed:
        raise RuntimeError(f"simulation of {folder} did not complete")
    return kernel_cycles(result)


def measure(bench: Benchmark, simulator, hw, reps: int | None = None,
            trace_dir: str | Path | None = None, **options) -> tuple[float, dict]:
    """The benchmark's value by its method: ``two_point``, or for a
    ``single_run`` benchmark one run of ``reps`` (what a hardware benchmark
    that times one pass reports: its start-up and drain included)."""
    if not bench.single_run:
        return two_point(bench, simulator, hw, reps, trace_dir, **options)
    n = bench.reps if reps is None else reps
    built = bench.generate(hw, n, **options)
    with tempfile.TemporaryDirectory(prefix=f"ubench-{bench.name}-") as tmp:
        root = Path(trace_dir) if trace_dir is not None else Path(tmp)
        cycles = simulate(simulator, built, root / bench.name / f"reps{n}")
    value = cycles / built.work if bench.kind == LATENCY else built.work / cycles / built.sms
    return value, {"reps": [n], "cycles": [cycles], "work": [built.work], "sms": built.sms}


def two_point(bench: Benchmark, simulator, hw, reps: int | None = None,
              trace_dir: str | Path | None = None, **options) -> tuple[float, dict]:
    """The benchmark's value and the raw points behind it."""
    n = bench.reps if reps is None else reps
    short, long_ = bench.generate(hw, n, **options), bench.generate(hw, 2 * n, **options)
    with tempfile.TemporaryDirectory(prefix=f"ubench-{bench.name}-") as tmp:
        root = Path(trace_dir) if trace_dir is not None else Path(tmp)
        c1 = simulate(simulator, short, root / bench.name / f"reps{n}")
        c2 = simulate(simulator, long_, root / bench.name / f"reps{2 * n}")
    cycles, work = c2 - c1, long_.work - short.work
    if cycles <= 0 or work <= 0:
        raise RuntimeError(f"{bench.name}: the longer run was not slower ({c1} vs {c2} cycles)")
    value = cycles / work if bench.kind == LATENCY else work / cycles / long_.sms
    detail = {"reps": [n, 2 * n], "cycles": [c1, c2], "work": [short.work, long_.work],
              "sms": long_.sms}
    return value, detail
