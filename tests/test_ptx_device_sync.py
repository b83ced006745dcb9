"""Device.synchronize() returns everything since the previous synchronize():
every kernel and copy, including those a synchronous copy_to_host ran in
between, with the counters of that whole window."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import accelsim
from accelsim import RunStopped
from accelsim.ptx import Device, Module

EXAMPLES = Path(accelsim.__file__).parent / "ptx" / "examples"
N = 1 << 12


def _setup():
    saxpy = Module(EXAMPLES / "basic.ptx").get_function("saxpy")
    dev = Device("QV100")
    x = dev.to_device(np.arange(N, dtype=np.float32))
    y = dev.zeros(N, np.float32)
    return saxpy, dev, x, y


def _total(res, family: str) -> int:
    return int(np.asarray(res.counters(family)).sum())


def test_two_kernels_then_two_copies_then_synchronize_reports_all_of_them():
    saxpy, dev, x, y = _setup()
    dev.synchronize()  # the window opens after the upload
    saxpy[N // 256, 256](np.float32(2.0), x, y, np.int32(N))
    saxpy[N // 256, 256](np.float32(2.0), x, y, np.int32(N))
    x.copy_to_host()  # runs both kernels and this copy
    got = y.copy_to_host()  # a second run: this copy alone
    res = dev.synchronize()
    np.testing.assert_array_equal(got, 4 * np.arange(N, dtype=np.float32))
    runs = dev.results[-2:]
    assert res.num_kernels == 2 and list(res.kernels["id"]) == [1, 2]
    assert [c["direction"] for c in res.copies] == ["DtoH", "DtoH"]
    assert res.total_cycles == sum(r.total_cycles for r in runs) > 0
    assert res.extra["runs"] == runs and res.completed
    assert _total(res, "dram.ops") == sum(_total(r, "dram.ops") for r in runs) > 0
    assert [s["kernels"] for s in res.to_dict()["streams"]] == [2]


def test_synchronize_with_nothing_since_reports_nothing():
    saxpy, dev, x, y = _setup()
    assert dev.synchronize().num_kernels == 0  # the upload alone: a copy
    saxpy[N // 256, 256](np.float32(1.0), x, y, np.int32(N))
    one = dev.synchronize()
    assert one.num_kernels == 1 and one is dev.results[-1]  # one run: that run's own result
    empty = dev.synchronize()
    assert empty.num_kernels == 0 and empty.total_cycles == 0 and empty.copies == []
    assert _total(empty, "dram.ops") == 0
    assert Device("QV100").synchronize() is None  # nothing ever ran


def test_a_copy_that_stopped_ends_the_window():
    saxpy, dev, x, y = _setup()
    dev.synchronize()
    saxpy[N // 256, 256](np.float32(1.0), x, y, np.int32(N))
    dev.max_cycles = 50
    with pytest.raises(RunStopped):
        y.copy_to_host()
    dev.max_cycles = None
    stopped = dev.synchronize()  # the window up to the stopped run
    assert stopped is dev.results[-1] and not stopped.completed
    saxpy[N // 256, 256](np.float32(1.0), x, y, np.int32(N))
    after = dev.synchronize()
    assert after.completed and after.num_kernels == 1


def test_streams_all_land_in_one_window():
    saxpy, dev, x, y = _setup()
    dev.synchronize()
    s1, s2 = dev.stream(), dev.stream()
    z = dev.zeros(N, np.float32)
    saxpy[N // 256, 256](np.float32(1.0), x, y, np.int32(N), stream=s1)
    y.copy_to_host(stream=s1)
    saxpy[N // 256, 256](np.float32(1.0), x, z, np.int32(N), stream=s2)
    z.copy_to_host()
    res = s2.synchronize()
    assert sorted(res.kernels["stream"]) == [1, 2]
    assert len(res.copies) == 2


def test_flush_caches_starts_every_kernel_with_an_empty_l2():
    saxpy = Module(EXAMPLES / "basic.ptx").get_function("saxpy")
    reads = {}
    for flush in (False, True):
        dev = Device("QV100", flush_caches=flush)
        x, y = dev.zeros(N, np.float32), dev.zeros(N, np.float32)
        for _ in range(2):
            saxpy[N // 256, 256](np.float32(1.0), x, y, np.int32(N))
        reads[flush] = list(dev.synchronize().kernels["dram_reads"])
    assert reads[False][0] > 0 and reads[False][1] == 0  # the second kernel hits in L2
    assert reads[True][1] == reads[True][0] == reads[False][0]
    with pytest.raises(accelsim.PtxError, match="flush_caches must be True or False"):
        Device("QV100", flush_caches="yes")
