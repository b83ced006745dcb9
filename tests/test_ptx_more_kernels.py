"""PTX mode, second set of kernels (examples/more.cu): scan, stencil,
Polybench-style linear algebra, BFS; exact NumPy results on two configs."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import accelsim
from accelsim import PtxError
from accelsim.ptx import Device, Module
from accelsim.studies.graphs import random_graph

EXAMPLES = Path(accelsim.__file__).parent / "ptx" / "examples"
CONFIGS = ["QV100", "TITANV"]
i32 = np.int32


@pytest.fixture(scope="module")
def more():
    return Module(EXAMPLES / "more.ptx")


def _ints(rng, shape, lo=-4, hi=5):
    """Small integers as float32: every sum and product below is exact."""
    return rng.integers(lo, hi, shape).astype(np.float32)


def _done(dev, kernels=1):
    res = dev.synchronize()
    assert res.completed and res.num_kernels == kernels and (res.kernels["warp_instructions"] > 0).all()
    return res


@pytest.mark.parametrize("config", CONFIGS)
def test_scan_blelloch(more, config):
    n, threads = 500, 256
    x = np.random.default_rng(10).integers(-100, 100, n).astype(np.int32)
    dev = Device(config)
    dx, dy = dev.to_device(x), dev.zeros(n, np.int32)
    more.get_function("scan_blelloch")[1, threads, 0, 2 * threads * 4](dx, dy, i32(n))
    _done(dev)
    np.testing.assert_array_equal(dy.copy_to_host(), np.concatenate([[0], np.cumsum(x)[:-1]]).astype(np.int32))


@pytest.mark.parametrize("config", CONFIGS)
def test_stencil2d(more, config):
    h, w = 37, 53
    a = _ints(np.random.default_rng(11), (h, w))
    dev = Device(config)
    din, dout = dev.to_device(a), dev.zeros((h, w), np.float32)
    more.get_function("stencil2d")[((w + 15) // 16, (h + 15) // 16), (16, 16)](
        din, dout, i32(w), i32(h), np.float32(0.5), np.float32(0.125))
    _done(dev)
    exp = a.copy()
    c = a[1:-1, 1:-1]
    nb = a[1:-1, :-2] + a[1:-1, 2:] + a[:-2, 1:-1] + a[2:, 1:-1]
    exp[1:-1, 1:-1] = np.float32(0.5) * c + np.float32(0.125) * nb
    np.testing.assert_array_equal(dout.copy_to_host(), exp)


@pytest.mark.parametrize("config", CONFIGS)
def test_gemm(more, config):
    ni, nj, nk = 33, 29, 41
    rng = np.random.default_rng(12)
    A, B, C = _ints(rng, (ni, nk)), _ints(rng, (nk, nj)), _ints(rng, (ni, nj))
    dev = Device(config)
    dA, dB, dC = dev.to_device(A), dev.to_device(B), dev.to_device(C)
    more.get_function("gemm")[((nj + 15) // 16, (ni + 15) // 16), (16, 16)](
        i32(ni), i32(nj), i32(nk), np.float32(2.0), np.float32(3.0), dA, dB, dC)
    _done(dev)
    np.testing.assert_array_equal(dC.copy_to_host(), 3 * C + 2 * (A @ B))


@pytest.mark.parametrize("config", CONFIGS)
def test_atax_bicg_mvt(more, config):
    nx, ny = 45, 38
    rng = np.random.default_rng(13)
    A = _ints(rng, (nx, ny))
    x, r, p = _ints(rng, ny), _ints(rng, nx), _ints(rng, ny)
    dev = Device(config)
    dA = dev.to_device(A)
    dx, dtmp, dy = dev.to_device(x), dev.zeros(nx, np.float32), dev.zeros(ny, np.float32)
    more.get_function("atax1")[(nx + 63) // 64, 64](dA, dx, dtmp, i32(nx), i32(ny))
    more.get_function("atax2")[(ny + 63) // 64, 64](dA, dtmp, dy, i32(nx), i32(ny))
    dr, dp, ds, dq = dev.to_device(r), dev.to_device(p), dev.zeros(ny, np.float32), dev.zeros(nx, np.float32)
    more.get_function("bicg1")[(ny + 63) // 64, 64, 1](dA, dr, ds, i32(nx), i32(ny))
    more.get_function("bicg2")[(nx + 63) // 64, 64, 2](dA, dp, dq, i32(nx), i32(ny))
    res = _done(dev, kernels=4)
    assert sorted(set(res.kernels["stream"])) == [0, 1, 2]
    np.testing.assert_array_equal(dy.copy_to_host(), A.T @ (A @ x))
    np.testing.assert_array_equal(ds.copy_to_host(), A.T @ r)
    np.testing.assert_array_equal(dq.copy_to_host(), A @ p)
    n = 40
    M = _ints(rng, (n, n))
    x1, x2, y1, y2 = _ints(rng, n), _ints(rng, n), _ints(rng, n), _ints(rng, n)
    d1, d2 = dev.to_device(x1), dev.to_device(x2)
    dM, dy1, dy2 = dev.to_device(M), dev.to_device(y1), dev.to_device(y2)
    more.get_function("mvt1")[1, 64](dM, d1, dy1, i32(n))
    more.get_function("mvt2")[1, 64](dM, d2, dy2, i32(n))
    _done(dev, kernels=2)
    np.testing.assert_array_equal(d1.copy_to_host(), x1 + M @ y1)
    np.testing.assert_array_equal(d2.copy_to_host(), x2 + M.T @ y2)


@pytest.mark.parametrize("config", CONFIGS)
def test_2mm(more, config):
    ni, nj, nk, nl = 20, 24, 18, 22
    rng = np.random.default_rng(14)
    A, B, C, D = _ints(rng, (ni, nk)), _ints(rng, (nk, nj)), _ints(rng, (nj, nl)), _ints(rng, (ni, nl))
    dev = Device(config)
    dA, dB, dC, dD, dtmp = (dev.to_device(A), dev.to_device(B), dev.to_device(C), dev.to_device(D),
                            dev.zeros((ni, nj), np.float32))
    more.get_function("mm2_1")[((nj + 15) // 16, (ni + 15) // 16), (16, 16)](
        i32(ni), i32(nj), i32(nk), np.float32(2.0), dA, dB, dtmp)
    more.get_function("mm2_2")[((nl + 15) // 16, (ni + 15) // 16), (16, 16)](
        i32(ni), i32(nl), i32(nj), np.float32(3.0), dtmp, dC, dD)
    _done(dev, kernels=2)
    np.testing.assert_array_equal(dD.copy_to_host(), 3 * D + (2 * (A @ B)) @ C)


@pytest.mark.parametrize("config", CONFIGS)
def test_bfs(more, config):
    n = 400
    row, col = random_graph(n, 3, 15)
    ref = np.full(n, -1, np.int32)
    ref[0] = 0
    front = [0]
    while front:
        nxt = []
        for v in front:
            for u in col[row[v]:row[v + 1]]:
                if ref[u] < 0:
                    ref[u] = ref[v] + 1
                    nxt.append(u)
        front = nxt
    dev = Device(config)
    drow, dcol = dev.to_device(row), dev.to_device(col)
    dist0 = np.full(n, -1, np.int32)
    dist0[0] = 0
    ddist = dev.to_device(dist0)
    fa, fb, cnt = dev.to_device(np.array([0] + [0] * (n - 1), np.int32)), dev.zeros(n, np.int32), dev.zeros(1, np.int32)
    nfront, level, cycles = 1, 0, 0
    k = more.get_function("bfs_level")
    while nfront:
        cnt.copy_from_host(np.zeros(1, np.int32))
        k[(nfront + 127) // 128, 128](drow, dcol, ddist, fa, i32(nfront), fb, cnt, i32(level))
        nfront = int(cnt.copy_to_host()[0])
        cycles += dev.synchronize().total_cycles
        fa, fb, level = fb, fa, level + 1
    np.testing.assert_array_equal(ddist.copy_to_host(), ref)
    assert level == ref.max() + 1 and cycles > 0


@pytest.mark.parametrize("config", CONFIGS)
def test_sincos_f64_libdevice_slow_path(more, config):
    """sin/cos in double: libdevice's fast path inline, arguments >= 2^31 go
    through __internal_trig_reduction_slowpathd (a .func with .local memory)."""
    x = np.concatenate([np.linspace(-10, 10, 50), [3e9, -7.5e10, 1e15, 123456789012.5, 0.0, -0.0]])
    n = len(x)
    dev = Device(config)
    dx, ds, dc = dev.to_device(x), dev.zeros(n, np.float64), dev.zeros(n, np.float64)
    more.get_function("sincos_f64")[1, 64](dx, ds, dc, i32(n))
    res = _done(dev)
    # libdevice's documented bound for sin/cos(double) is 2 ulp
    for got, ref in ((ds.copy_to_host(), np.sin(x)), (dc.copy_to_host(), np.cos(x))):
        ulp = np.spacing(np.abs(ref))
        assert np.all(np.abs(got - ref) <= 2 * ulp), np.max(np.abs(got - ref) / ulp)
    assert np.signbit(ds.copy_to_host()[-1])  # sin(-0) = -0
    assert res.kernels["warp_instructions"].iloc[0] > 100


@pytest.mark.parametrize("config", CONFIGS)
def test_texture_object_read(more, config):
    n = 300
    x = np.linspace(-5, 5, n).astype(np.float32)
    dev = Device(config)
    dx, dout = dev.to_device(x), dev.zeros(n + 10, np.float32)
    tex = dev.texture_object(dx)
    more.get_function("tex_read")[(n + 10 + 63) // 64, 64](tex, dout, i32(n + 10))  # 10 reads past the end
    _done(dev)
    np.testing.assert_array_equal(dout.copy_to_host(), np.concatenate([2 * x, np.zeros(10, np.float32)]))


def test_texture_errors(more):
    dev = Device("QV100")
    with pytest.raises(PtxError, match="float32, float16 or 8/16/32-bit integers"):
        dev.texture_object(dev.zeros(4, np.float64))
    out = dev.zeros(4, np.float32)
    more.get_function("tex_read")[1, 32](np.uint64(99), out, i32(4))
    with pytest.raises(PtxError, match="texture handle 99"):
        dev.synchronize()


@pytest.mark.parametrize("config", CONFIGS)
def test_intra_warp_spin_lock_makes_progress(config):
    """Every lane of every warp takes the same global lock in turn (a deadlock
    under pure stack-based reconvergence)."""
    mod = Module(EXAMPLES / "lock.ptx")
    dev = Device(config)
    lock, counter = dev.zeros(1, np.int32), dev.zeros(1, np.int32)
    mod.get_function("locked_count")[3, 64](lock, counter)
    res = _done(dev)
    assert counter.copy_to_host()[0] == 3 * 64
    assert lock.copy_to_host()[0] == 0
    assert res.kernels["thread_instructions"].iloc[0] > 3 * 64 * 5


FUNC_SHARED = """
.version 8.0
.target sm_75
.address_size 64
.func (.param .b32 r) mirror(.param .b32 v)
{
  .shared .align 4 .b32 buf[32];
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.b32 %r1, [v];
  mov.u32 %r2, %tid.x;
  mov.u64 %rd1, buf;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.shared.b32 [%rd3], %r1;
  bar.sync 0;
  sub.u32 %r3, 31, %r2;
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.shared.b32 %r4, [%rd3];
  st.param.b32 [r], %r4;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .shared .align 4 .b32 own[32];
  .reg .b32 %r<6>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u64 %rd2, own;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  add.u32 %r2, %r1, 1000;
  st.shared.b32 [%rd4], %r2;
  mul.lo.u32 %r3, %r1, 7;
  {
  .param .b32 a;
  st.param.b32 [a], %r3;
  .param .b32 b;
  call.uni (b), mirror, (a);
  ld.param.b32 %r4, [b];
  }
  ld.shared.b32 %r5, [%rd4];
  add.s64 %rd5, %rd1, %rd3;
  st.global.b32 [%rd5], %r4;
  add.s64 %rd5, %rd5, 128;
  st.global.b32 [%rd5], %r5;
  ret;
}
"""


@pytest.mark.parametrize("config", ["QV100"])
def test_shared_variables_inside_a_func_have_their_own_block_memory(config):
    # mirror() keeps its values in its own .shared array: thread t gets what
    # thread 31 - t stored there; the kernel's own shared array is untouched
    dev = Device(config)
    out = dev.zeros(64, np.uint32)
    Module(FUNC_SHARED, name="func_shared.ptx").get_function("k")[2, 32](out)
    dev.synchronize()
    h = out.copy_to_host()
    t = np.arange(32, dtype=np.uint32)
    assert list(h[:32]) == list((31 - t) * 7)
    assert list(h[32:]) == list(t + 1000)
