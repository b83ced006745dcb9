"""The CuPy/Numba conventions of the Device API: Module.get_global,
Device.malloc, DeviceArray.fill/memset/view/reshape/slicing views, the
kernel(grid, block, args) call form and ``with stream:``; each bad argument
a clear error."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import accelsim
from accelsim import DeviceTypeError, PtxError
from accelsim.ptx import Device, Module

EXAMPLES = Path(accelsim.__file__).parent / "ptx" / "examples"

# out[i] = scale[i % 4] (a __constant__ table); each thread bumps `counter`
# (a __device__ variable); `table` is an untyped .b8 array as nvcc declares one.
GLOBALS_PTX = r"""
.version 7.0
.target sm_70
.address_size 64
.const .align 4 .f32 scale[4] = {0f3F800000, 0f40000000, 0f40400000, 0f40800000};
.global .align 4 .u32 counter;
.global .align 4 .b8 table[64];

.visible .entry apply(.param .u64 out, .param .u32 n)
{
  .reg .pred %p;
  .reg .b32 %r<6>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<9>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p, %r2, %r1;
  @%p bra DONE;
  and.b32 %r3, %r2, 3;
  mul.wide.u32 %rd2, %r3, 4;
  mov.u64 %rd3, scale;
  add.s64 %rd4, %rd3, %rd2;
  ld.const.f32 %f1, [%rd4];
  cvta.to.global.u64 %rd5, %rd1;
  mul.wide.u32 %rd6, %r2, 4;
  add.s64 %rd7, %rd5, %rd6;
  st.global.f32 [%rd7], %f1;
  mov.u64 %rd8, counter;
  atom.global.add.u32 %r4, [%rd8], 1;
DONE:
  ret;
}
"""


def _vector_add():
    return Module(EXAMPLES / "basic.ptx").get_function("vectorAdd")


# --- Module.get_global ---
def test_get_global_reads_and_writes_constant_and_device_variables():
    mod, dev = Module(GLOBALS_PTX, name="globals.ptx"), Device("QV100")
    scale, counter, table = (mod.get_global(n, dev) for n in ("scale", "counter", "table"))
    assert (scale.dtype, scale.shape) == (np.float32, (4,))
    assert (counter.dtype, counter.shape) == (np.uint32, (1,))
    assert (table.dtype, table.shape) == (np.uint8, (64,))
    np.testing.assert_array_equal(scale.copy_to_host(), [1, 2, 3, 4])  # the initialiser
    scale.copy_from_host(np.array([10, 20, 30, 40], np.float32))  # cudaMemcpyToSymbol
    out = dev.zeros(8, np.float32)
    mod.get_function("apply")[1, 8](out, np.int32(8))
    np.testing.assert_array_equal(out.copy_to_host(), [10, 20, 30, 40] * 2)
    assert int(counter.copy_to_host()[0]) == 8
    assert mod.get_global("table", dev, dtype=np.float32).shape == (16,)
    assert mod.get_global("scale", dev).ptr == scale.ptr  # one placement per device


def test_get_global_bad_arguments():
    mod, dev = Module(GLOBALS_PTX, name="globals.ptx"), Device("QV100")
    with pytest.raises(PtxError, match=r"no __device__ or __constant__ variable 'nope' in globals.ptx.*scale"):
        mod.get_global("nope", dev)
    with pytest.raises(PtxError, match="device must be an accelsim.Device"):
        mod.get_global("scale", "QV100")
    with pytest.raises(PtxError, match="not a whole number of float64"):
        mod.get_global("counter", dev, dtype=np.float64)
    with pytest.raises(DeviceTypeError, match="not a NumPy dtype"):
        mod.get_global("scale", dev, dtype="nonsense")


# --- malloc, fill, memset, view ---
def test_malloc_view_fill_and_memset():
    dev = Device("QV100")
    raw = dev.malloc(64)
    assert (raw.shape, raw.dtype, raw.nbytes) == ((64,), np.uint8, 64)
    floats = raw.view(np.float32)
    assert floats.shape == (16,) and floats.ptr == raw.ptr
    floats.fill(2.5)
    np.testing.assert_array_equal(floats.copy_to_host(), np.full(16, 2.5, np.float32))
    ints = dev.zeros(8, np.int32)
    ints.memset(0xFF)
    np.testing.assert_array_equal(ints.copy_to_host(), np.full(8, -1, np.int32))
    res = dev.synchronize()
    assert "Memset" in [c["direction"] for c in res.copies]
    assert all(c["cycles"] == 0 for c in res.copies if c["direction"] == "Memset")


def test_fill_runs_in_order_with_the_launches():
    dev = Device("QV100")
    a, c = dev.zeros(64, np.float32), dev.zeros(64, np.float32)
    a.fill(1.0)
    _vector_add()[1, 64](a, a, c, np.int32(64))
    c.fill(7.0)  # after the kernel: overwrites its result
    np.testing.assert_array_equal(c.copy_to_host(), np.full(64, 7.0, np.float32))


def test_malloc_fill_memset_view_bad_arguments():
    dev = Device("QV100", memory_bytes=1 << 20)
    for bad in (-1, 1.5, True, "8"):
        with pytest.raises(PtxError, match="malloc takes a byte count"):
            dev.malloc(bad)
    with pytest.raises(accelsim.DeviceMemoryError, match="out of device memory"):
        dev.malloc(2 << 20)
    a = dev.zeros(4, np.int8)
    with pytest.raises(DeviceTypeError, match="does not fit int8"):
        a.fill(300)
    with pytest.raises(DeviceTypeError, match="fill takes one value"):
        a.fill([1, 2])
    for bad in (256, -1, 1.0):
        with pytest.raises(PtxError, match="memset takes a byte value"):
            a.memset(bad)
    with pytest.raises(PtxError, match="not a whole number of int32"):
        dev.zeros(3, np.int8).view(np.int32)


# --- views ---
def test_slices_and_reshape_are_views_a_kernel_writes_through():
    dev = Device("QV100")
    a = dev.to_device(np.arange(64, dtype=np.float32))
    c = dev.zeros(64, np.float32)
    _vector_add()[1, 16](a[16:32], a[16:32], c[32:48], np.int32(16))
    want = np.zeros(64, np.float32)
    want[32:48] = 2 * np.arange(16, 32)
    np.testing.assert_array_equal(c.copy_to_host(), want)
    grid = c.reshape(8, -1)
    assert grid.shape == (8, 8) and len(grid) == 8 and len(c) == 64
    np.testing.assert_array_equal(grid[4].copy_to_host(), want[32:40])
    np.testing.assert_array_equal(grid[-4].copy_to_host(), want[32:40])
    assert grid[2:4].shape == (2, 8) and grid[2:4].ptr == c.ptr + 2 * 8 * 4
    assert c.reshape((2, 4, 8)).shape == (2, 4, 8) and c[60:100].shape == (4,)


def test_view_bad_arguments():
    c = Device("QV100").zeros(64, np.float32)
    with pytest.raises(PtxError, match="step 2 is not supported"):
        c[::2]
    with pytest.raises(PtxError, match="index 64 is out of bounds"):
        c[64]
    with pytest.raises(PtxError, match="an int or a slice of the first axis"):
        c[1, 2]
    with pytest.raises(PtxError, match="cannot reshape an array of 64 elements into shape"):
        c.reshape(7, 9)
    with pytest.raises(PtxError, match="only one dimension may be -1"):
        c.reshape(-1, -1)
    with pytest.raises(PtxError, match="cannot reshape"):
        c.reshape(-1, 5)
    with pytest.raises(PtxError, match="0-d DeviceArray cannot be indexed"):
        c.reshape(64)[0][0]


# --- the CuPy call form ---
def test_cupy_call_form_equals_numba_form():
    dev = Device("QV100")
    a = dev.to_device(np.arange(64, dtype=np.float32))
    c1, c2 = dev.zeros(64, np.float32), dev.zeros(64, np.float32)
    k = _vector_add()
    k((1,), (64,), (a, a, c1, np.int32(64)))
    k[1, 64](a, a, c2, np.int32(64))
    np.testing.assert_array_equal(c1.copy_to_host(), c2.copy_to_host())
    res = dev.results[-2]  # c1's copy ran both kernels
    assert res.kernels["cycles"].iloc[0] == res.kernels["cycles"].iloc[1]
    with pytest.raises(PtxError, match=r"kernel\(grid, block, args\) with args a tuple"):
        k((1,), (64,), a)
    with pytest.raises(PtxError, match="takes 4 arguments"):
        k((1,), (64,), (a, a))
    with pytest.raises(PtxError, match="block must be a positive int"):
        k((1,), (0,), (a, a, c1, np.int32(64)))


# --- with stream: ---
def test_with_stream_sends_launches_and_copies_to_it():
    dev = Device("QV100")
    a = dev.to_device(np.arange(64, dtype=np.float32))
    c = dev.zeros(64, np.float32)
    s1, s2 = dev.stream(), dev.stream()
    k = _vector_add()
    with s1:
        k[1, 64](a, a, c, np.int32(64))
        with s2:
            k((1,), (64,), (a, a, c, np.int32(64)))
        k[1, 64](a, a, c, np.int32(64), stream=0)  # an explicit stream wins
        c.copy_from_host(np.zeros(64, np.float32))  # cudaMemcpyAsync on s1
    assert dev._stream_stack == []
    assert [d["stream"] for d in dev._pending[-4:]] == [1, 2, 0, 1]
    res = dev.synchronize()
    assert list(res.kernels["stream"]) == [1, 2, 0]
    with pytest.raises(PtxError, match="stream must be a Stream of this device"):
        k[1, 64](a, a, c, np.int32(64), stream="s1")
