"""Simulator speed and memory benchmarks (``accelsim bench``)."""
from accelsim.bench.cases import CASES, BenchCase
from accelsim.bench.runner import run_bench

__all__ = ["CASES", "BenchCase", "run_bench"]
