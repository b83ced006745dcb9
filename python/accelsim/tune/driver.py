"""Runs the suite on this machine's GPU through the CUDA driver API
(cuda-python, ``pip install accelsim[cuda]``) and returns a HwProfile.

Per benchmark: compile its source for the device (sizes from the device's
facts), load the PTX, run its init kernel if any, then the timed kernel;
each block's clock64 start/stop comes back in ``out`` and the declared
arithmetic turns them into the unit (docs/tuning.md, "collect")."""
from __future__ import annotations

import ctypes
import datetime
import importlib
import statistics

from accelsim.errors import AccelsimError
from accelsim.tune.compile import to_ptx
from accelsim.tune.profile import HwProfile, Measured
from accelsim.microbench.suite import CURVE, HOST, LATENCY, SUITE, evaluate


class NoGpuError(AccelsimError):
    """There is no usable CUDA GPU (or driver) on this machine."""


def _driver():
    try:
        driver = _driver_module()
    except ImportError:
        raise NoGpuError("cuda-python is not installed (pip install accelsim[cuda]); "
                         "collecting needs a CUDA GPU and its driver") from None
    try:
        (err,) = driver.cuInit(0)
    except Exception as exc:  # noqa: BLE001 - libcuda missing: the bindings raise on first call
        raise NoGpuError(f"no CUDA driver on this machine ({exc}); collecting needs a CUDA GPU") from None
    if err != driver.CUresult.CUDA_SUCCESS:
        raise NoGpuError(f"no CUDA GPU on this machine (cuInit: {err.name})")
    err, count = driver.cuDeviceGetCount()
    if err != driver.CUresult.CUDA_SUCCESS or count == 0:
        raise NoGpuError("no CUDA GPU on this machine (the driver reports 0 devices)")
    return driver


def _driver_module():
    """cuda-python's driver API bindings (imported by name: an optional extra)."""
    return importlib.import_module("cuda.bindings.driver")


def _ok(result, what: str):
    err, *rest = result if isinstance(result, tuple) else (result,)
    driver = _driver_module()

    if err != driver.CUresult.CUDA_SUCCESS:
        raise AccelsimError(f"CUDA driver call {what} failed: {err.name}")
    return rest[0] if len(rest) == 1 else rest


def device_facts(driver, dev) -> dict:
    A = driver.CUdevice_attribute

    def attr(a):
        return _ok(driver.cuDeviceGetAttribute(a, dev), "cuDeviceGetAttribute")

    name = _ok(driver.cuDeviceGetName(256, dev), "cuDeviceGetName").split(b"\0")[0].decode()
    major = attr(A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
    minor = attr(A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
    return {
        "name": name, "compute_capability": f"{major}.{minor}",
        "sm_count": attr(A.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
        "max_clock_mhz": attr(A.CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000.0,
        "max_threads_per_sm": attr(A.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR),
        "max_threads_per_block": attr(A.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
        "registers_per_sm": attr(A.CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR),
        "shared_per_sm": attr(A.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
        "shared_per_block": attr(A.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
        "warp_size": attr(A.CU_DEVICE_ATTRIBUTE_WARP_SIZE),
        "l2_bytes": attr(A.CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE),
        "memory_clock_mhz": attr(A.CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) / 1000.0,
        "memory_bus_width_bits": attr(A.CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH),
    }


def size_facts(dev: dict, l1_bytes: int) -> dict:
    """The names size expressions use, for a real device (L1 size is not a
    device attribute: the caller gives it, 32 KiB by default)."""
    return {"SM_COUNT": dev["sm_count"], "WARP": dev["warp_size"],
            "MAX_THREADS": dev["max_threads_per_block"], "L1_BYTES": l1_bytes,
            "L2_BYTES": dev["l2_bytes"], "LINE": 128, "SECTOR": 32,
            "SHMEM_PER_CTA": dev["shared_per_block"], "SM_THREADS": dev["max_threads_per_sm"]}


def collect(only: list[str] | None = None, *, l1_bytes: int = 32 * 1024, device: int = 0,
            progress=None) -> HwProfile:
    """Runs the suite (or the benchmarks in ``only``) on GPU ``device``."""
    driver = _driver()
    dev = _ok(driver.cuDeviceGet(device), "cuDeviceGet")
    facts_dev = device_facts(driver, dev)
    ctx = _ok(driver.cuDevicePrimaryCtxRetain(dev), "cuDevicePrimaryCtxRetain")
    _ok(driver.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    arch = "compute_" + facts_dev["compute_capability"].replace(".", "")
    facts = size_facts(facts_dev, l1_bytes)
    out = {}
    try:
        for name in only or list(SUITE):
            if progress:
                progress(name)
            out[name] = _run_one(driver, SUITE[name], facts, facts_dev, arch)
    finally:
        driver.cuDevicePrimaryCtxRelease(dev)
    return HwProfile(facts_dev, out, {"kind": "collect", "tool": "accelsim tune collect",
                                      "date": datetime.datetime.now(datetime.timezone.utc).isoformat()})


def _run_one(driver, bench, facts, dev, arch) -> Measured:
    if bench.sweep is None:
        return _measure(driver, bench, facts, dev, arch, {})
    define, points = bench.sweep
    samples = []
    for expr in points:
        x = evaluate(expr, facts)
        m = _measure(driver, bench, facts, dev, arch, {define: x})
        samples.append([x, m.value])
    return Measured(None, bench.unit, bench.reps, samples, f"collect: {bench.kernel} over {define}")


def _measure(driver, bench, facts, dev, arch, overrides) -> Measured:
    sizes = {**bench.sizes(facts), **overrides}
    env = {**facts, **sizes}
    block = overrides.get("BLOCK", evaluate(bench.block, env))
    grid = evaluate(bench.grid, env)
    module = _ok(driver.cuModuleLoadData(to_ptx(bench, facts, arch, overrides=overrides).encode() + b"\0"),
                 "cuModuleLoadData")
    nbuf = max(evaluate(bench.buffer, env), 256)
    nout = 2 * grid + grid * block
    buf = _ok(driver.cuMemAlloc(nbuf), "cuMemAlloc")
    outp = _ok(driver.cuMemAlloc(8 * nout), "cuMemAlloc")
    try:
        _ok(driver.cuMemsetD8(buf, 0, nbuf), "cuMemsetD8")
        if bench.init:
            _launch(driver, module, bench.init, 80, 256, buf, outp, 0)
        if bench.kind == HOST:
            value = _host_timed(driver, module, bench, buf, outp, dev)
        else:
            _launch(driver, module, bench.kernel, grid, block, buf, outp, bench.reps)
            host = (ctypes.c_uint64 * nout)()
            _ok(driver.cuMemcpyDtoH(host, outp, 8 * nout), "cuMemcpyDtoH")
            if bench.analyse == "cta_gaps":
                value = _cta_gaps(host, grid, block)
                return Measured(float(value), bench.unit, bench.reps, None, f"collect: {bench.kernel}")
            spans = [host[2 * b + 1] - host[2 * b] for b in range(grid)]
            cycles = max(spans)
            per_rep = evaluate(bench.per_rep, env)
            if bench.kind in (LATENCY, CURVE):
                value = cycles / (bench.reps * per_rep)
            else:
                sms = grid if bench.per_sm else 1
                value = per_rep * block * grid * bench.reps / cycles / sms
    finally:
        driver.cuMemFree(buf)
        driver.cuMemFree(outp)
        driver.cuModuleUnload(module)
    return Measured(float(value), bench.unit, bench.reps, None, f"collect: {bench.kernel}")


def _cta_gaps(host, grid: int, block: int) -> float:
    """Median time from a block's end to the next block's start on the same
    SM (the clocks of one SM are comparable; different SMs' are not)."""
    per_sm: dict[int, list] = {}
    for b in range(grid):
        smid = host[2 * grid + b * block]
        per_sm.setdefault(smid, []).append((host[2 * b], host[2 * b + 1]))
    gaps = []
    for spans in per_sm.values():
        spans.sort()
        gaps += [nxt[0] - cur[1] for cur, nxt in zip(spans, spans[1:]) if nxt[0] >= cur[1]]
    if not gaps:
        raise AccelsimError("cta_lat: no SM ran two blocks one after the other")
    return float(statistics.median(gaps))


def _launch(driver, module, kernel, grid, block, buf, outp, reps) -> None:
    fn = _ok(driver.cuModuleGetFunction(module, kernel.encode()), "cuModuleGetFunction")
    args = ((buf, outp, reps), (None, None, ctypes.c_uint32))
    _ok(driver.cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, 0, args, 0), f"cuLaunchKernel({kernel})")
    _ok(driver.cuCtxSynchronize(), f"cuCtxSynchronize after {kernel}")


def _host_timed(driver, module, bench, buf, outp, dev) -> float:
    """Mean launch-to-launch time of back-to-back empty kernels, in core cycles."""
    fn = _ok(driver.cuModuleGetFunction(module, bench.kernel.encode()), "cuModuleGetFunction")
    start = _ok(driver.cuEventCreate(0), "cuEventCreate")
    stop = _ok(driver.cuEventCreate(0), "cuEventCreate")
    args = ((buf, outp, 0), (None, None, ctypes.c_uint32))
    times = []
    for _ in range(5):
        _ok(driver.cuEventRecord(start, 0), "cuEventRecord")
        for _ in range(bench.reps):
            _ok(driver.cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, 0, args, 0), "cuLaunchKernel")
        _ok(driver.cuEventRecord(stop, 0), "cuEventRecord")
        _ok(driver.cuEventSynchronize(stop), "cuEventSynchronize")
        times.append(_ok(driver.cuEventElapsedTime(start, stop), "cuEventElapsedTime"))
    ms = statistics.median(times) / bench.reps
    return ms * 1e-3 * dev["max_clock_mhz"] * 1e6
