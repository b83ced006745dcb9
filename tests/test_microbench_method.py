"""The two-length difference method, checked with a stand-in simulator
whose cycle counts are known: fixed overhead + cost per timed step."""
from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest

from accelsim.microbench.benchmark import LATENCY, RATE, Benchmark, Built
from accelsim.microbench.method import measure, two_point
from accelsim.tracegen import Inst, Kernel, ThreadBlock


class FakeSimulator:
    """Reads the kernel's instruction count back from the trace folder and
    charges ``overhead + per_inst * insts`` cycles after the launch."""

    def __init__(self, overhead: int, per_inst: int):
        self.overhead, self.per_inst = overhead, per_inst

    def run(self, listing):
        from accelsim import open_trace

        insts = int(open_trace(listing).kernels["warp_instructions"].sum())
        start = 5000  # launch latency: must cancel
        end = start + self.overhead + self.per_inst * insts
        kernels = pd.DataFrame({"start_cycle": [start], "end_cycle": [end]})
        return SimpleNamespace(kernels=kernels, completed=True)


def nops(hw, reps: int, per_step: int = 3, sms: int = 1) -> Built:
    warp = [Inst("NOP", 1) for _ in range(7)] + [Inst("NOP", 1) for _ in range(reps)] + [Inst("EXIT", 1)]
    k = Kernel(name="k", grid=(1, 1, 1), block=(1, 1, 1), blocks=[ThreadBlock(warps=[warp])])
    return Built(commands=[k], work=reps * per_step, sms=sms)


def test_latency_is_cycles_per_step_without_overheads():
    bench = Benchmark("t", "cycles", LATENCY, nops, "", 10, {"per_step": 1})
    value, detail = two_point(bench, FakeSimulator(overhead=999, per_inst=7), hw=None)
    assert value == pytest.approx(7.0)
    assert detail["reps"] == [10, 20] and detail["cycles"][1] - detail["cycles"][0] == 70


def test_rate_is_work_per_cycle_per_sm():
    bench = Benchmark("t", "B/clk/SM", RATE, nops, "", 8, {"per_step": 12, "sms": 2})
    value, _ = two_point(bench, FakeSimulator(overhead=123, per_inst=3), hw=None)
    assert value == pytest.approx(12 / 3 / 2)


def test_no_slower_longer_run_is_an_error():
    bench = Benchmark("t", "cycles", LATENCY, nops, "", 4)
    with pytest.raises(RuntimeError, match="not slower"):
        two_point(bench, FakeSimulator(overhead=10, per_inst=0), hw=None)


def test_traces_can_be_kept(tmp_path):
    bench = Benchmark("keep", "cycles", LATENCY, nops, "", 2)
    two_point(bench, FakeSimulator(1, 1), hw=None, trace_dir=tmp_path)
    assert (tmp_path / "keep" / "reps2" / "kernelslist.g").is_file()
    assert (tmp_path / "keep" / "reps4" / "kernel-1.traceg").is_file()


def test_a_single_run_benchmark_is_its_work_over_one_runs_cycles():
    """A benchmark that reports one timed pass (the reference suite's
    mem_bw) is one run, overheads included: 8 steps of 12 bytes over
    123 + 3 x 16 instructions' cycles."""
    bench = Benchmark("t", "B/clk", RATE, nops, "", 8, {"per_step": 12}, single_run=True)
    value, detail = measure(bench, FakeSimulator(overhead=123, per_inst=3), hw=None)
    assert detail["reps"] == [8] and detail["cycles"] == [123 + 3 * 16]
    assert value == pytest.approx(8 * 12 / (123 + 3 * 16))


def test_measure_is_the_two_point_method_otherwise():
    bench = Benchmark("t", "cycles", LATENCY, nops, "", 10, {"per_step": 1})
    assert measure(bench, FakeSimulator(overhead=999, per_inst=7), hw=None)[0] == pytest.approx(7.0)
