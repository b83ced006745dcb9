"""accelsim.ptx API: from_cuda, save_trace + replay with identical cycles,
streams, launch forms."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import accelsim
from accelsim import PtxError
from accelsim.ptx import Device, Module
from cuda_util import have_cuda_compiler

EXAMPLES = Path(accelsim.__file__).parent / "ptx" / "examples"

VECADD_CU = r"""
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
"""


@pytest.mark.skipif(not have_cuda_compiler(), reason="neither NVRTC (pip install accelsim[ptx]) nor nvcc")
def test_from_cuda_vector_add():
    mod = Module.from_cuda(VECADD_CU, name="vadd.cu")
    n = 300
    a = np.arange(n, dtype=np.float32)
    dev = accelsim.Device("QV100")
    da, db, dc = dev.to_device(a), dev.to_device(2 * a), dev.zeros(n, np.float32)
    mod.get_function("vadd")[(n + 127) // 128, 128](da, db, dc, np.int32(n))
    assert dev.synchronize().completed
    np.testing.assert_array_equal(dc.copy_to_host(), 3 * a)


@pytest.mark.skipif(not have_cuda_compiler(), reason="neither NVRTC nor nvcc")
def test_from_cuda_compile_error_is_ptx_error():
    with pytest.raises(PtxError, match="failed to compile"):
        Module.from_cuda("__global__ void broken( {", name="broken.cu")


def _matmul(dev, mod, m=32, n=32, k=48):
    rng = np.random.default_rng(0)
    A = rng.integers(-4, 4, (m, k)).astype(np.float32)
    B = rng.integers(-4, 4, (k, n)).astype(np.float32)
    dA, dB, dC = dev.to_device(A), dev.to_device(B), dev.zeros((m, n), np.float32)
    mod.get_function("matmul_tiled")[((n + 15) // 16, (m + 15) // 16), (16, 16)](
        dA, dB, dC, np.int32(m), np.int32(n), np.int32(k))
    return dC, A @ B


@pytest.mark.parametrize("kernel", ["matmul", "vectorAdd"])
def test_saved_trace_replays_with_identical_cycles(tmp_path, kernel):
    mod = Module(EXAMPLES / "basic.ptx")
    if kernel == "matmul":
        dev = Device("QV100")
        dC, expect = _matmul(dev, mod)
        live = dev.synchronize()
        np.testing.assert_array_equal(dC.copy_to_host(), expect)
        dev2 = Device("QV100")
        dC2, _ = _matmul(dev2, mod)
    else:
        n = 2000
        x = np.arange(n, dtype=np.float32)
        dev = Device("QV100")
        out = dev.zeros(n, np.float32)
        mod.get_function("vectorAdd")[(n + 255) // 256, 256](dev.to_device(x), dev.to_device(x), out, np.int32(n))
        live = dev.synchronize()
        dev2 = Device("QV100")
        dC2 = dev2.zeros(n, np.float32)
        mod.get_function("vectorAdd")[(n + 255) // 256, 256](dev2.to_device(x), dev2.to_device(x), dC2, np.int32(n))
        expect = 2 * x
    klist = dev2.save_trace(tmp_path / "trace")
    np.testing.assert_array_equal(dC2.copy_to_host(), expect)  # save_trace executes the kernels too
    replay = accelsim.Simulator("QV100").run(klist)
    assert replay.total_cycles == live.total_cycles
    assert replay.warp_instructions == live.warp_instructions
    assert list(replay.kernels["l2_read_misses"]) == list(live.kernels["l2_read_misses"])
    info = accelsim.open_trace(klist)
    assert len(info.kernels) == 1


def test_streams_overlap_and_results():
    mod = Module(EXAMPLES / "basic.ptx")
    dev = Device("TITANV")
    n = 4096
    x = dev.to_device(np.ones(n, np.float32))
    ys = [dev.zeros(n, np.float32) for _ in range(2)]
    for s, y in enumerate(ys):
        mod.get_function("saxpy")[n // 256, 256](np.float32(s + 1), x, y, np.int32(n), stream=s + 1)
    res = dev.synchronize()
    assert res.num_kernels == 2 and sorted(res.kernels["stream"]) == [1, 2]
    k = res.kernels
    # the two kernels overlap in time (different streams)
    assert max(k["start_cycle"]) < min(k["end_cycle"])
    for s, y in enumerate(ys):
        np.testing.assert_array_equal(y.copy_to_host(), np.full(n, s + 1, np.float32))
    # each synchronous copy_to_host was a run of its own (a timed DtoH copy);
    # synchronize() reports both
    last = dev.synchronize()
    assert last.extra["runs"] == dev.results[-2:] and last.num_kernels == 0
    assert [c["direction"] for c in last.copies] == ["DtoH", "DtoH"]


def test_kernel_by_unmangled_name_and_repr():
    mod = Module((EXAMPLES / "basic.ptx").read_text(), name="basic")
    assert "vectorAdd" in mod.kernel_names
    k = mod.get_function("vectorAdd")
    assert "vectorAdd" in repr(k) and "basic" in repr(mod)
    assert [p["type"] for p in k.params] == ["u64", "u64", "u64", "u32"]


def test_bench_ptx_case_quick():
    from accelsim.bench import run_bench

    (row,) = run_bench(quick=True, cases=["ptx_matmul"])
    assert row["completed"] and row["warp_insts"] > 0 and row["cycles"] > 0
    assert 0 < row["emulation_share"] <= 1
    assert row["peak_rss_mb"] > 0


def test_bench_ptx_bfs_emulates_the_same_levels_it_times():
    # The emulation-only pass must carry out the queued counter reset (a
    # host-to-device copy whose bytes land when it runs): without it the
    # frontier count only grows and the host loop never ends.
    from accelsim.bench import ptx_cases as bench

    levels = bench._bfs({"nodes": 400, "degree": 3})
    timed, _, _ = bench._timed(levels, "QV100")
    seen = []

    def counted(dev):
        for cnt in levels(dev):
            seen.append(1)
            assert len(seen) <= timed.num_kernels, "the emulated BFS ran more levels than the timed one"
            yield cnt

    assert bench._emulated(counted, "QV100") > 0
    assert len(seen) == timed.num_kernels


def test_nvrtc_path_when_installed():
    from accelsim.ptx.compile import _nvrtc

    ptx = _nvrtc(VECADD_CU, "vadd.cu", "sm_75", [])
    if ptx is None:
        pytest.skip("NVRTC (cuda-python + nvidia-cuda-nvrtc) not installed")
    mod = Module(ptx, name="nvrtc.ptx")
    assert mod.kernel_names == ["vadd"]
    dev = Device("TITANV")
    a = dev.to_device(np.arange(64, dtype=np.float32))
    c = dev.zeros(64, np.float32)
    mod.get_function("vadd")[1, 64](a, a, c, np.int32(64))
    np.testing.assert_array_equal(c.copy_to_host(), 2 * np.arange(64, dtype=np.float32))


@pytest.mark.skipif(__import__("accelsim.ptx.ptxas", fromlist=["x"]).find_ptxas() is None, reason="no ptxas")
def test_ptxas_register_counts_set_occupancy():
    from accelsim.ptx.ptxas import register_counts

    mod = Module(EXAMPLES / "basic.ptx")
    counts = register_counts(mod.text)
    assert set(counts) >= {"vectorAdd", "matmul_tiled"} and all(1 <= v <= 255 for v in counts.values())
    rows = {}
    for regs in (255, "ptxas"):
        dev = Device("QV100", regs_per_thread=regs)
        dC, expect = _matmul(dev, mod, m=64, n=64, k=32)
        k = dev.synchronize().kernels.iloc[0]
        np.testing.assert_array_equal(dC.copy_to_host(), expect)
        rows[regs] = k
    # 255 registers x 256 threads fit one block per SM; ptxas's count fits several
    assert rows[255]["ctas_per_sm"] == 1 and rows["ptxas"]["ctas_per_sm"] > 1
    with pytest.raises(PtxError, match="regs_per_thread"):
        Device("QV100", regs_per_thread=0)


def test_host_to_device_copies_are_timed_in_order():
    mod = Module(EXAMPLES / "basic.ptx")
    n = 1 << 18
    starts = {}
    for how in ("copied", "zeros"):
        dev = Device("QV100")
        x = dev.to_device(np.ones(n, np.float32)) if how == "copied" else dev.zeros(n, np.float32)
        y = dev.zeros(n, np.float32)
        mod.get_function("saxpy")[n // 256, 256](np.float32(1.0), x, y, np.int32(n))
        res = dev.synchronize()
        starts[how] = int(res.kernels["start_cycle"].iloc[0])
        if how == "copied":
            np.testing.assert_array_equal(y.copy_to_host()[:4], np.ones(4, np.float32))
    # the 1 MiB copy goes through the copy engine before the kernel may start
    assert starts["copied"] > starts["zeros"]
