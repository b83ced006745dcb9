"""accelsim.ptx copies: device-to-host copies timed on the copy engine,
copies on streams (ordering within a stream, overlap across streams), and
what save_trace writes for them."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import accelsim
from accelsim import PtxError
from accelsim.ptx import Device, Module

EXAMPLES = Path(accelsim.__file__).parent / "ptx" / "examples"


@pytest.fixture(scope="module")
def saxpy():
    return Module(EXAMPLES / "basic.ptx").get_function("saxpy")


def test_device_to_host_copy_is_timed_and_scales_with_size():
    dev = Device("QV100")
    cycles = {}
    for n in (1 << 14, 1 << 16):
        host = np.arange(n, dtype=np.float32)
        d = dev.to_device(host)
        np.testing.assert_array_equal(d.copy_to_host(), host)
        res = dev.results[-1]
        # the run that copy_to_host made holds this copy (after the HtoD)
        assert [c["direction"] for c in res.copies] == ["HtoD", "DtoH"]
        c = res.copies[-1]
        assert c["bytes"] == 4 * n and c["stream"] is None and c["completed"]
        assert c["start_cycle"] >= res.copies[0]["end_cycle"] and c["cycles"] > 0
        assert res.total_cycles == c["end_cycle"] - res.copies[0]["start_cycle"]  # the run, on the device clock
        cycles[n] = c["cycles"]
    # the link rate sets the time: four times the bytes, about four times the cycles
    assert 3.5 < cycles[1 << 16] / cycles[1 << 14] < 4.5


def test_async_device_to_host_reads_what_the_stream_wrote_before_it(saxpy):
    n = 1 << 12
    dev = Device("QV100")
    s = dev.stream()
    x = dev.to_device(np.ones(n, np.float32))
    y = dev.zeros(n, np.float32)
    saxpy[n // 256, 256](np.float32(2.0), x, y, np.int32(n), stream=s)
    after_first = y.copy_to_host(stream=s)
    saxpy[n // 256, 256](np.float32(3.0), x, y, np.int32(n), stream=s)  # y += 3x afterwards
    assert not after_first.any()  # filled when the queue runs, like pinned memory
    res = dev.synchronize()
    np.testing.assert_array_equal(after_first, np.full(n, 2.0, np.float32))
    np.testing.assert_array_equal(y.copy_to_host(), np.full(n, 5.0, np.float32))
    d2h = [c for c in res.copies if c["direction"] == "DtoH"]
    assert len(d2h) == 1 and d2h[0]["stream"] == s.id
    k = res.kernels
    assert d2h[0]["start_cycle"] >= k["end_cycle"].iloc[0]  # in order on the stream
    assert k["start_cycle"].iloc[1] >= d2h[0]["end_cycle"]


def test_async_host_to_device_lands_when_the_copy_runs(saxpy):
    n = 1 << 12
    dev = Device("QV100")
    s = dev.stream()
    x = dev.to_device(np.ones(n, np.float32))
    y, z = dev.zeros(n, np.float32), dev.zeros(n, np.float32)
    saxpy[n // 256, 256](np.float32(1.0), x, y, np.int32(n), stream=s)  # reads x = 1
    x.copy_from_host(np.full(n, 4.0, np.float32), stream=s)
    saxpy[n // 256, 256](np.float32(1.0), x, z, np.int32(n), stream=s)  # reads x = 4
    res = dev.synchronize()
    np.testing.assert_array_equal(y.copy_to_host(), np.ones(n, np.float32))
    np.testing.assert_array_equal(z.copy_to_host(), np.full(n, 4.0, np.float32))
    copy = [c for c in res.copies if c["stream"] == s.id][0]
    k = res.kernels
    assert k["end_cycle"].iloc[0] <= copy["start_cycle"] and copy["end_cycle"] <= k["start_cycle"].iloc[1]


def _copy_and_kernel(saxpy, same_stream: bool):
    n = 1 << 16
    dev = Device("QV100")
    x = dev.to_device(np.ones(n, np.float32))
    y = dev.zeros(n, np.float32)
    dev.synchronize()
    s1, s2 = dev.stream(), dev.stream()
    big = dev.empty(1 << 18, np.float32)
    big.copy_from_host(np.arange(1 << 18, dtype=np.float32), stream=s1)
    saxpy[n // 256, 256](np.float32(2.0), x, y, np.int32(n), stream=s1 if same_stream else s2)
    res = dev.synchronize()
    np.testing.assert_array_equal(y.copy_to_host(), np.full(n, 2.0, np.float32))
    np.testing.assert_array_equal(big.copy_to_host()[-3:], np.arange((1 << 18) - 3, 1 << 18, dtype=np.float32))
    return res


def test_copy_and_kernel_on_two_streams_overlap(saxpy):
    serial = _copy_and_kernel(saxpy, same_stream=True)
    overlap = _copy_and_kernel(saxpy, same_stream=False)
    copy_cycles = overlap.copies[0]["cycles"]
    kernel_cycles = int(serial.kernels["end_cycle"].iloc[0] - serial.kernels["launch_cycle"].iloc[0])
    assert serial.total_cycles >= copy_cycles + kernel_cycles  # one after the other
    assert overlap.total_cycles < copy_cycles + kernel_cycles   # side by side
    k = overlap.kernels
    assert k["end_cycle"].iloc[0] < overlap.copies[0]["end_cycle"]  # the kernel ran during the copy


def test_copies_both_ways_on_two_streams_share_the_duplex_link():
    n = 1 << 16
    dev = Device("QV100")
    a = dev.to_device(np.ones(n, np.float32))
    b = dev.empty(n, np.float32)
    dev.synchronize()
    s1, s2 = dev.stream(), dev.stream()
    host = a.copy_to_host(stream=s1)
    b.copy_from_host(np.full(n, 7.0, np.float32), stream=s2)
    res = dev.synchronize()
    one_way = max(c["cycles"] for c in res.copies)
    assert res.total_cycles < 1.2 * one_way  # the two directions at once
    np.testing.assert_array_equal(host, np.ones(n, np.float32))
    np.testing.assert_array_equal(b.copy_to_host(), np.full(n, 7.0, np.float32))


def test_same_direction_copies_queue_on_one_engine():
    n = 1 << 14
    dev = Device("QV100")
    a, b = dev.empty(n, np.float32), dev.empty(n, np.float32)
    s1, s2 = dev.stream(), dev.stream()
    a.copy_from_host(np.ones(n, np.float32), stream=s1)
    b.copy_from_host(np.ones(n, np.float32), stream=s2)
    c1, c2 = dev.synchronize().copies
    assert c2["start_cycle"] >= c1["end_cycle"]


def test_stream_arguments_are_checked(saxpy):
    dev, other = Device("QV100"), Device("QV100")
    a = dev.zeros(16, np.float32)
    with pytest.raises(PtxError, match="another device"):
        a.copy_to_host(stream=other.stream())
    with pytest.raises(PtxError, match="stream must be"):
        a.copy_from_host(np.zeros(16, np.float32), stream=-1)
    with pytest.raises(PtxError, match="stream must be"):
        dev.to_device(np.zeros(4), stream="s1")
    with pytest.raises(PtxError, match="stream must be"):
        saxpy[1, 16](np.float32(1), a, a, np.int32(16), stream=1.5)
    s = dev.stream()
    assert int(s) == 1 and int(dev.stream()) == 2 and s.synchronize() is None


def test_save_trace_lists_host_to_device_copies_and_does_device_to_host_ones(tmp_path, saxpy):
    n = 1 << 10
    dev = Device("QV100")
    s = dev.stream()
    x = dev.to_device(np.ones(n, np.float32))
    y = dev.zeros(n, np.float32)
    saxpy[n // 256, 256](np.float32(2.0), x, y, np.int32(n), stream=s)
    host = y.copy_to_host(stream=s)
    x.copy_from_host(np.full(n, 3.0, np.float32), stream=s)
    klist = dev.save_trace(tmp_path / "t")
    np.testing.assert_array_equal(host, np.full(n, 2.0, np.float32))
    np.testing.assert_array_equal(x.copy_to_host(), np.full(n, 3.0, np.float32))
    lines = klist.read_text().split()
    assert [ln.split(",")[0] for ln in lines] == ["MemcpyHtoD", "kernel-1.traceg", "MemcpyHtoD"]
    replay = accelsim.Simulator("QV100").run(klist)
    assert [c["direction"] for c in replay.copies] == ["HtoD", "HtoD"]  # traced copies are listed too
    assert all(c["stream"] is None for c in replay.copies)
