"""PTX mode: kernels written for accelsim (python/accelsim/ptx/examples/*.cu,
PTX committed) run on the timing model and produce exactly NumPy's result,
on two configs, through the detailed memory model."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import accelsim
from accelsim.ptx import Device, Module

EXAMPLES = Path(accelsim.__file__).parent / "ptx" / "examples"
CONFIGS = ["QV100", "TITANV"]


@pytest.fixture(scope="module")
def basic():
    return Module(EXAMPLES / "basic.ptx")


def _check_run(res, kernels=1):
    assert res.completed
    assert res.num_kernels == kernels
    assert res.total_cycles > 0
    k = res.kernels
    assert (k["warp_instructions"] > 0).all()
    return k


@pytest.mark.parametrize("config", CONFIGS)
def test_vector_add(basic, config):
    rng = np.random.default_rng(1)
    n = 1000
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    dev = Device(config)
    da, db, dc = dev.to_device(a), dev.to_device(b), dev.zeros(n, np.float32)
    basic.get_function("vectorAdd")[(n + 127) // 128, 128](da, db, dc, np.int32(n))
    res = dev.synchronize()
    np.testing.assert_array_equal(dc.copy_to_host(), a + b)
    k = _check_run(res)
    # through the memory model: the inputs were just copied in (the copy engine
    # writes through L2, so they hit there), the output misses
    assert k["l2_read_hits"].iloc[0] > 0 and k["l2_read_misses"].iloc[0] + k["l2_writes"].iloc[0] > 0
    assert k["ctas"].iloc[0] == 8


@pytest.mark.parametrize("config", CONFIGS)
def test_saxpy(basic, config):
    n = 777
    x = np.arange(n, dtype=np.float32) * 0.5
    y = np.linspace(-3, 3, n, dtype=np.float32)
    dev = Device(config)
    dx, dy = dev.to_device(x), dev.to_device(y)
    basic.get_function("saxpy")[(n + 255) // 256, 256](np.float32(2.5), dx, dy, np.int32(n))
    _check_run(dev.synchronize())
    # nvcc contracts alpha*x+y into one fma: round once
    expect = (np.float64(2.5) * x.astype(np.float64) + y.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(dy.copy_to_host(), expect)


@pytest.mark.parametrize("config", CONFIGS)
def test_reduce_shared(basic, config):
    n = 2000
    x = np.random.default_rng(2).integers(-50, 50, n).astype(np.float32)  # exact in float
    blocks = (n + 255) // 256
    dev = Device(config)
    dx, dout = dev.to_device(x), dev.zeros(blocks, np.float32)
    basic.get_function("reduce_shared")[blocks, 256](dx, dout, np.int32(n))
    _check_run(dev.synchronize())
    expect = np.pad(x, (0, blocks * 256 - n)).reshape(blocks, 256).sum(axis=1)
    np.testing.assert_array_equal(dout.copy_to_host(), expect)


@pytest.mark.parametrize("config", CONFIGS)
def test_reduce_shfl(basic, config):
    n = 3000
    x = np.random.default_rng(3).integers(-1000, 1000, n).astype(np.int32)
    dev = Device(config)
    dx, dout = dev.to_device(x), dev.zeros(1, np.int32)
    basic.get_function("reduce_shfl")[(n + 255) // 256, 256](dx, dout, np.int32(n))
    _check_run(dev.synchronize())
    assert dout.copy_to_host()[0] == x.sum()


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("name", ["transpose_naive", "transpose_padded"])
def test_transpose(basic, config, name):
    h, w = 70, 45
    a = np.arange(h * w, dtype=np.float32).reshape(h, w)
    dev = Device(config)
    din, dout = dev.to_device(a), dev.zeros((w, h), np.float32)
    basic.get_function(name)[((w + 31) // 32, (h + 31) // 32), (32, 8)](din, dout, np.int32(w), np.int32(h))
    _check_run(dev.synchronize())
    np.testing.assert_array_equal(dout.copy_to_host(), a.T)


@pytest.mark.parametrize("config", CONFIGS)
def test_matmul_tiled(basic, config):
    m, n, k = 40, 36, 50
    rng = np.random.default_rng(4)
    A = rng.integers(-8, 8, (m, k)).astype(np.float32)  # small integers: every sum exact
    B = rng.integers(-8, 8, (k, n)).astype(np.float32)
    dev = Device(config)
    dA, dB, dC = dev.to_device(A), dev.to_device(B), dev.zeros((m, n), np.float32)
    basic.get_function("matmul_tiled")[((n + 15) // 16, (m + 15) // 16), (16, 16)](
        dA, dB, dC, np.int32(m), np.int32(n), np.int32(k))
    k_ = _check_run(dev.synchronize())
    assert k_["shmem_accesses"].iloc[0] > 0
    np.testing.assert_array_equal(dC.copy_to_host(), A @ B)


@pytest.mark.parametrize("config", CONFIGS)
def test_histogram(basic, config):
    n = 5000
    data = np.random.default_rng(5).integers(0, 256, n).astype(np.uint8)
    dev = Device(config)
    dd, bins = dev.to_device(data), dev.zeros(256, np.uint32)
    basic.get_function("histogram")[8, 128](dd, bins, np.int32(n))
    _check_run(dev.synchronize())
    np.testing.assert_array_equal(bins.copy_to_host(), np.bincount(data, minlength=256).astype(np.uint32))


def _nested_reference(v: np.ndarray) -> np.ndarray:
    out = np.zeros_like(v)
    for i, x in enumerate(v.tolist()):
        acc = 0
        for a in range(x & 7):
            if (x + a) & 1:
                for b in range(a + 1):
                    acc += b * x
            else:
                acc -= a
                if acc < -10:
                    break
        out[i] = acc
    return out


@pytest.mark.parametrize("config", CONFIGS)
def test_nested_divergent(basic, config):
    n = 300
    v = np.random.default_rng(6).integers(-40, 40, n).astype(np.int32)
    dev = Device(config)
    dv, dout = dev.to_device(v), dev.zeros(n, np.int32)
    basic.get_function("nested_divergent")[(n + 127) // 128, 128](dv, dout, np.int32(n))
    _check_run(dev.synchronize())
    np.testing.assert_array_equal(dout.copy_to_host(), _nested_reference(v))


@pytest.mark.parametrize("config", CONFIGS)
def test_dynamic_shared_and_struct_param(basic, config):
    n, block = 500, 128
    x = np.arange(n, dtype=np.float32)
    affine = np.array([(2.0, 1.0, 5, 0)], dtype=[("scale", "<f4"), ("shift", "<f4"), ("stride", "<i4"),
                                                   ("pad", "<i4")])[0]
    dev = Device(config)
    dx, dout = dev.to_device(x), dev.zeros(n, np.float32)
    basic.get_function("dyn_shared_struct")[(n + block - 1) // block, block, 0, block * 4](
        dx, dout, affine, np.int32(n))
    _check_run(dev.synchronize())
    t = np.arange(n) % block
    base = np.arange(n) - t
    j = base + (t + 5) % block
    vals = np.where(j < n, np.float32(2.0) * np.arange(n + block, dtype=np.float32)[j] + np.float32(1.0), 0)
    np.testing.assert_array_equal(dout.copy_to_host(), vals.astype(np.float32))
