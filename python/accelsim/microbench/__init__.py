"""Classic GPU microbenchmarks as generated SASS traces (issue #3).

Each benchmark writes the trace of what the real microbenchmark compiles to
(pointer chases, streaming loads, chains of arithmetic), sized from a GPU
config, simulates it and reports the result in the benchmark's own unit,
next to the real GPU's value when one is known::

    from accelsim import microbench
    microbench.run("l1_lat", "TITANV")      # Measurement(value=..., unit="cycles", hw_value=33.7)
    microbench.run_all("TITANV")
    microbench.names()
"""
from accelsim.microbench.benchmark import Benchmark, Built
from accelsim.microbench.hardware import HARDWARE_VALUES, hardware_value
from accelsim.microbench.hwdef import HardwareDef
from accelsim.microbench.measurement import Measurement
from accelsim.microbench.suite import BENCHMARKS, SUITE, Microbenchmark, Simulated, declaration, get, names
from accelsim.microbench.runner import run, run_all

__all__ = ["BENCHMARKS", "Benchmark", "Built", "HARDWARE_VALUES", "HardwareDef", "Measurement",
           "Microbenchmark", "SUITE", "Simulated", "declaration", "get", "hardware_value", "names", "run",
           "run_all"]
