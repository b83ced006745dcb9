"""A Device is one GPU: synchronize() goes on from where the last run
stopped (clock, caches), and each result covers its own run."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import accelsim
from accelsim import PtxError
from accelsim.ptx import Device, Module

EXAMPLES = Path(accelsim.__file__).parent / "ptx" / "examples"


def _saxpy_twice(n: int):
    saxpy = Module(EXAMPLES / "basic.ptx").get_function("saxpy")
    dev = Device("QV100")
    x, y = dev.zeros(n, np.float32), dev.zeros(n, np.float32)
    runs = []
    for _ in range(2):
        saxpy[n // 256, 256](np.float32(2.0), x, y, np.int32(n))
        runs.append(dev.synchronize())
    return dev, runs


def test_second_run_hits_in_l2_what_the_first_brought_in():
    dev, (first, second) = _saxpy_twice(1 << 14)  # 128 KiB: fits the 6 MiB L2
    k1, k2 = first.kernels.iloc[0], second.kernels.iloc[0]
    assert k1["dram_reads"] > 0 and k2["dram_reads"] == 0
    assert k2["l2_read_hits"] > k1["l2_read_hits"]
    assert second.total_cycles < first.total_cycles
    # the device clock went on; each result's total is its own run
    assert k2["launch_cycle"] >= first.total_cycles
    assert dev.cycles == first.total_cycles + second.total_cycles
    assert list(first.kernels["id"]) == [1] and list(second.kernels["id"]) == [2]
    # counters per run, not cumulative
    assert int(np.asarray(first.counters("dram.ops")).sum()) > 0
    assert int(np.asarray(second.counters("dram.ops")).sum()) == 0
    assert [r["kernels"] for r in second.to_dict()["streams"]] == [1]


def test_a_new_device_is_a_fresh_gpu():
    _, (first, _) = _saxpy_twice(1 << 14)
    _, (again, _) = _saxpy_twice(1 << 14)
    assert again.total_cycles == first.total_cycles
    assert list(again.kernels["dram_reads"]) == list(first.kernels["dram_reads"])


def test_streams_keep_their_identity_across_runs():
    saxpy = Module(EXAMPLES / "basic.ptx").get_function("saxpy")
    dev = Device("QV100")
    n = 1 << 12
    x, y = dev.zeros(n, np.float32), dev.zeros(n, np.float32)
    s1, s2 = dev.stream(), dev.stream()
    saxpy[n // 256, 256](np.float32(1.0), x, y, np.int32(n), stream=s2)
    a = dev.synchronize()
    saxpy[n // 256, 256](np.float32(1.0), x, y, np.int32(n), stream=s1)
    saxpy[n // 256, 256](np.float32(1.0), x, y, np.int32(n), stream=s2)
    b = dev.synchronize()
    assert [r["stream"] for r in a.to_dict()["streams"]] == [2]
    assert sorted(r["stream"] for r in b.to_dict()["streams"]) == [1, 2]
    assert sorted(b.kernels["stream"]) == [1, 2]


def test_a_failed_run_leaves_the_device_usable_on_a_fresh_gpu():
    m = Module(EXAMPLES / "basic.ptx")
    dev = Device("QV100")
    a, c = dev.zeros(64, np.float32), dev.zeros(64, np.float32)
    m.get_function("vectorAdd")[1, 64](a, a, c, np.int32(64))
    first = dev.synchronize()
    m.get_function("vectorAdd")[2, 64](a, a, c, np.int32(128))  # n larger than the buffers
    with pytest.raises(PtxError, match="out of bounds"):
        dev.synchronize()
    x = dev.to_device(np.arange(64, dtype=np.float32))
    m.get_function("vectorAdd")[1, 64](x, x, c, np.int32(64))
    again = dev.synchronize()
    np.testing.assert_array_equal(c.copy_to_host(), 2 * np.arange(64, dtype=np.float32))
    assert again is not first and again.completed
    assert dev._gpu is not None and dev._gpu.resets == 1  # the half-run GPU was replaced
    assert dev.cycles < first.total_cycles + again.total_cycles + dev.results[-1].total_cycles
