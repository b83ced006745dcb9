"""Bad input to a PTX-mode Device and Module as a user (or a hostile one)
gives it: every case is a clear accelsim error, never a crash, a pybind11 or
NumPy traceback, a silent conversion or host RAM filling up. Device memory is
lazy and capped at the config's DRAM size; host data follows CuPy's rules."""
from __future__ import annotations

import resource
from pathlib import Path

import numpy as np
import pytest

import accelsim
from accelsim import ConfigError, DeviceMemoryError, DeviceTypeError, PtxError
from accelsim.ptx import Device, Module

EXAMPLES = Path(accelsim.__file__).parent / "ptx" / "examples"

# out[tid] = tid (one store per thread)
STORE_TID = """.version 8.0
.target sm_75
.address_size 64
.visible .entry store(.param .u64 out)
{
\t.reg .b32 %r<2>;
\t.reg .b64 %rd<4>;
\tld.param.u64 %rd1, [out];
\tcvta.to.global.u64 %rd1, %rd1;
\tmov.u32 %r1, %tid.x;
\tmul.wide.u32 %rd2, %r1, 4;
\tadd.u64 %rd3, %rd1, %rd2;
\tst.global.u32 [%rd3], %r1;
\tret;
}
"""


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---- device memory: lazy pages, a capacity, a clear error beyond it -------------

def test_allocation_beyond_the_config_dram_is_a_memory_error():
    dev = Device("QV100")  # 32 GiB
    assert dev.memory_bytes == 32 << 30
    with pytest.raises(DeviceMemoryError, match="out of device memory.*cudaErrorMemoryAllocation") as e:
        dev.zeros(2**38, np.uint8)
    assert isinstance(e.value, MemoryError)
    assert (e.value.requested, e.value.capacity) == (2**38, 32 << 30)
    a = dev.zeros(16 << 30, np.uint8)   # fits
    b = dev.zeros(15 << 30, np.uint8)   # fits beside it
    with pytest.raises(DeviceMemoryError) as e:
        dev.zeros(2 << 30, np.uint8)
    assert e.value.in_use >= a.nbytes + b.nbytes
    assert Device("RTX2060").memory_bytes == 6 << 30


def test_large_arrays_cost_host_memory_only_where_written():
    before = _rss_mb()
    dev = Device("QV100", memory_bytes=1 << 40)
    big = dev.zeros(2**38 // 4, np.uint32)  # 256 GiB of device memory
    out = dev.zeros(64, np.uint32)
    Module(STORE_TID, name="store.ptx").get_function("store")[1, 64](big)
    Module(STORE_TID, name="store.ptx").get_function("store")[1, 64](out)
    dev.synchronize()
    assert (out.copy_to_host() == np.arange(64)).all()
    assert _rss_mb() - before < 200
    with pytest.raises(ConfigError, match="memory_bytes"):
        Device("QV100", memory_bytes=0)


# ---- host data as CuPy takes it ------------------------------------------------------

@pytest.mark.parametrize("data", [np.array(["x", "y"]), np.array([object(), 1], dtype=object),
                                  np.array([b"ab"]), ["x", "y"]])
def test_to_device_refuses_text_and_objects(data):
    with pytest.raises(DeviceTypeError, match="device arrays hold numbers") as e:
        Device("QV100").to_device(data)
    assert isinstance(e.value, TypeError)


def test_copy_from_host_keeps_values_or_refuses():
    dev = Device("QV100")
    f32 = dev.zeros(2, np.float32)
    with pytest.raises(DeviceTypeError, match="float64 array does not fit a float32"):
        f32.copy_from_host(np.array([1e300, 1.0]))  # would become inf
    with pytest.raises(DeviceTypeError, match="float64 array"):
        f32.copy_from_host(np.array([1.0, 2.0]))  # another dtype, as CuPy's set()
    with pytest.raises(DeviceTypeError, match=r"the value 1e\+300 does not fit float32"):
        f32.copy_from_host([1e300, 1.0])
    f32.copy_from_host([1.5, 2.5])  # Python floats that fit
    assert (f32.copy_to_host() == [1.5, 2.5]).all()
    i32 = dev.zeros(2, np.int32)
    with pytest.raises(DeviceTypeError, match="3.5 does not fit int32"):
        i32.copy_from_host([3.5, 1])
    with pytest.raises(DeviceTypeError, match="does not fit int32"):
        i32.copy_from_host([2**40, 1])
    with pytest.raises(DeviceTypeError, match="device arrays hold numbers, not text"):
        i32.copy_from_host(["x", "y"])
    dev.zeros(2, np.int64).copy_from_host(np.array([1, 2], np.int32))  # safe cast
    with pytest.raises(PtxError, match="copy of 3 elements"):
        i32.copy_from_host([1, 2, 3])


def test_device_array_never_converts_implicitly():
    a = Device("QV100").zeros(4, np.float32)
    with pytest.raises(DeviceTypeError, match="implicit conversion.*copy_to_host") as e:
        np.asarray(a)
    assert isinstance(e.value, TypeError)
    with pytest.raises(DeviceTypeError):
        np.array([a, a])
    with pytest.raises(DeviceTypeError, match="already"):
        a.device.to_device(a)


@pytest.mark.parametrize("shape, error, words", [
    (-5, PtxError, "negative dimensions"), ((4, -1), PtxError, "negative dimensions"),
    (2.5, PtxError, "shape must be"), ("10", PtxError, "shape must be"), (True, PtxError, "shape must be"),
])
def test_bad_shapes(shape, error, words):
    with pytest.raises(error, match=words):
        Device("QV100").zeros(shape)


def test_bad_dtypes():
    dev = Device("QV100")
    with pytest.raises(DeviceTypeError, match="not <U4"):
        dev.zeros(3, "U4")
    with pytest.raises(DeviceTypeError, match="not a NumPy dtype"):
        dev.empty(3, "float33")


# ---- Device and Module arguments -----------------------------------------------------

def test_device_arguments():
    with pytest.raises(ConfigError, match="max_warp_insts"):
        Device("QV100", max_warp_insts=-1)
    with pytest.raises(ConfigError, match="max_warp_insts"):
        Device("QV100", max_warp_insts=2.5)
    with pytest.raises(ConfigError, match="arch"):
        Device("QV100", arch="seventy")


def test_launch_limits_from_cuda_and_the_config():
    k = Module(EXAMPLES / "basic.ptx").get_function("vectorAdd")
    dev = Device("QV100")
    a = dev.zeros(4, np.float32)
    with pytest.raises(PtxError, match=r"grid.x = 2,147,483,648 is beyond CUDA's limit"):
        k[2**31, 32]
    with pytest.raises(PtxError, match=r"grid.y = 65,536"):
        k[(1, 65536), 32]
    with pytest.raises(PtxError, match=r"block.z = 65 is beyond CUDA's limit of 64"):
        k[1, (1, 1, 65)]
    with pytest.raises(PtxError, match="must be a positive int"):
        k[2.5, 32]
    with pytest.raises(PtxError, match="shmem_per_cta") as e:
        k[1, 32, 0, 70000](a, a, a, np.int32(4))
    assert "65,536" in str(e.value)
    small = Device(accelsim.load_config("QV100").with_overrides({"max_threads_per_sm": 512}))
    b = small.zeros(4, np.float32)
    with pytest.raises(PtxError, match="more than an SM of .* holds \\(512"):
        k[1, 1024](b, b, b, np.int32(4))


def test_module_of_a_missing_file_says_so(tmp_path):
    for name in ("x.ptx", "kernel.txt", str(tmp_path / "nope" / "k")):
        with pytest.raises(PtxError, match="does not exist"):
            Module(name)
    with pytest.raises(PtxError, match="cannot read PTX file"):
        Module(tmp_path)  # a folder


def test_save_trace_onto_a_file_is_an_error(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("mine")
    dev = Device("QV100")
    with pytest.raises(PtxError, match="exists and is not a folder"):
        dev.save_trace(taken)
    assert taken.read_text() == "mine"


def test_from_cuda_argument_errors():
    with pytest.raises(PtxError, match="arch must name a GPU target such as 'sm_75'"):
        Module.from_cuda("__global__ void k() {}", arch="sm75")
    with pytest.raises(PtxError, match="not UTF-8"):
        Module.from_cuda(b"\xff\xfe__global__ void k() {}")
    with pytest.raises(PtxError, match="CUDA C\\+\\+ source text"):
        Module.from_cuda(42)
    with pytest.raises(PtxError, match="options must be a list of strings"):
        Module.from_cuda("__global__ void k() {}", options="-O3")


# ---- errors after from_cuda name the CUDA line ---------------------------------------

def _compile(src: str, name: str = "kernel.cu") -> Module:
    try:
        return Module.from_cuda(src, name=name)
    except PtxError as e:
        if "no CUDA compiler" in str(e):
            pytest.skip(str(e))
        raise


CUDA = r"""extern "C" __global__ void oob(int* a) {
    a[threadIdx.x * 4096] = 1;
}
extern "C" __global__ void trapping(int* a) {
    if (threadIdx.x == 3) __trap();
    a[threadIdx.x] = 2;
}
extern "C" __global__ void printing(int* a) {
    printf("hello %d\n", a[0]);
}
extern "C" __global__ void allocating(int* a) {
    int* b = (int*)malloc(16);
    b[0] = 1;
    a[0] = b[0];
    free(b);
}
"""


def test_errors_after_from_cuda_name_the_cuda_line():
    mod = _compile(CUDA)
    dev = Device("QV100")
    a = dev.zeros(64, np.int32)
    mod.get_function("oob")[1, 32](a)
    with pytest.raises(PtxError, match=r"^kernel\.cu:2: .*out of bounds.*\(PTX line \d+") as e:
        dev.synchronize()
    assert (e.value.path, e.value.line) == ("kernel.cu", 2) and e.value.ptx_line > 2
    mod.get_function("trapping")[1, 32](a)
    with pytest.raises(PtxError, match=r"^kernel\.cu:5: kernel trapping, block \(0,0,0\), thread \(3,0,0\): "
                                       r"trap executed"):
        dev.synchronize()
    # A call to a function without a body is refused at the launch call itself.
    with pytest.raises(PtxError, match=r"^kernel\.cu:9: printf in device code \(vprintf\) is not supported"):
        mod.get_function("printing")[1, 32](a)
    with pytest.raises(PtxError, match=r"^kernel\.cu:12: device-side malloc .* is not supported"):
        mod.get_function("allocating")[1, 32](a)
    dev.synchronize()  # nothing was queued by either


def test_function_pointer_tables_run():
    src = r"""
__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int square(int x) { return x * x; }
typedef int (*op_t)(int);
__device__ op_t ops[2] = {twice, square};
extern "C" __global__ void k(int* a) { a[threadIdx.x] = ops[threadIdx.x % 2](a[threadIdx.x]); }
"""
    mod = _compile(src, name="fp.cu")
    dev = Device("QV100")
    a = dev.to_device(np.arange(32, dtype=np.int32))
    mod.get_function("k")[1, 32](a)
    dev.synchronize()
    x = np.arange(32)
    np.testing.assert_array_equal(a.copy_to_host(), np.where(x % 2, x * x, 2 * x))


def test_each_module_keeps_its_own_variables_on_a_device():
    """Module variables are placed per module on its first launch; a module
    freed and a new one made at the same address must not share them (a
    fuzz finding: the cache was keyed by id(), which Python reuses)."""
    import gc

    dev = Device("QV100")
    out = dev.zeros(1, np.uint32)
    for i in range(40):
        n = 1 + i % 3
        decls = "".join(f".global .align 4 .u32 g{j} = {100 * i + j};\n" for j in range(n))
        src = (".version 8.0\n.target sm_75\n.address_size 64\n" + decls +
               ".visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
               f"\tld.param.u64 %rd1, [out];\n\tld.global.u32 %r1, [g{n - 1}];\n"
               "\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n")
        Module(src, name=f"m{i}.ptx").get_function("k")[1, 1](out)
        assert out.copy_to_host()[0] == 100 * i + n - 1
        gc.collect()
