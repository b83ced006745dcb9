"""The hardware half of the microbenchmark suite: every kernel compiles to
PTX, and each benchmark's two descriptions come from one declaration."""
from __future__ import annotations

import inspect
from concurrent.futures import ThreadPoolExecutor

import pytest

from accelsim import load_config
from accelsim.microbench import BENCHMARKS, HardwareDef
from accelsim.microbench.benchmark import LATENCY as SIM_LATENCY
from accelsim.tune import SUITE
from accelsim.tune.compile import CompileError, find_nvcc, have_nvrtc, to_ptx
from accelsim.microbench.suite import CURVE, LATENCY, RATE, evaluate, facts_from_hwdef

FACTS = facts_from_hwdef(HardwareDef.from_config(load_config("TITANV")))


def _compiler() -> str:
    if find_nvcc():
        return "nvcc"
    if have_nvrtc():
        return "nvrtc"
    pytest.skip("neither nvcc nor NVRTC (pip install accelsim[cuda]) is available")


def test_every_kernel_compiles_to_ptx():
    _check_all(_compiler())


def test_every_kernel_compiles_with_nvrtc_too():
    if not have_nvrtc():
        pytest.skip("NVRTC is not installed (pip install accelsim[cuda] nvidia-cuda-nvrtc)")
    if not find_nvcc():
        pytest.skip("NVRTC already compiled everything in test_every_kernel_compiles_to_ptx")
    _check_all("nvrtc")


def _check_all(compiler: str):
    jobs = {}
    for b in SUITE.values():  # one compile per distinct (source, defines)
        jobs.setdefault((b.source, tuple(sorted(b.sizes(FACTS).items()))), []).append(b)
    with ThreadPoolExecutor(max_workers=2) as pool:
        ptx = dict(zip(jobs, pool.map(lambda k: to_ptx(jobs[k][0], FACTS, compiler=compiler), jobs)))
    for key, benches in jobs.items():
        for b in benches:
            assert f".entry {b.kernel}(" in ptx[key], f"{b.name}: no entry {b.kernel} in the PTX"
            if b.init:
                assert f".entry {b.init}(" in ptx[key], f"{b.name}: no init kernel {b.init}"


@pytest.mark.parametrize("compiler", ["nvcc", "nvrtc"])
def test_a_broken_size_is_a_compile_error_naming_the_source(compiler):
    if not (find_nvcc() if compiler == "nvcc" else have_nvrtc()):
        pytest.skip(f"{compiler} is not available")
    with pytest.raises(CompileError, match="chase.cu"):
        to_ptx(SUITE["l1_lat"], FACTS, overrides={"STRIDE": "0 +"}, compiler=compiler)


def test_the_suite_covers_the_seed_suites_measurements():
    names = set(SUITE)
    required = {
        "l1_lat", "l2_lat", "dram_lat", "shared_lat",                       # latencies
        "l1_bw_32", "l1_bw_64", "l1_bw_128", "l2_bw_32", "l2_bw_64", "l2_bw",  # bandwidths
        "dram_bw", "shared_bw", "shared_bw_64",
        "l1_size", "l2_size", "l1_line", "l2_line", "l1_sector", "l2_sector", "l1_assoc",
        "l1_write_policy", "l2_write_policy", "coalescing_grain", "shared_banks", "l1_streaming",
        "l1_mshr", "fp32_lat", "fp64_lat", "fp16_lat", "int32_lat", "sfu_lat", "tensor_lat",
        "fp32_flops", "fp64_flops", "fp16_flops", "int32_flops", "sfu_throughput", "tensor_flops",
        "atomic_lat", "atomic_bw", "atomic_bw_conflict", "kernel_lat", "cta_lat",
    }
    assert required <= names
    assert len({(b.source, b.kernel) for b in SUITE.values()}) == len(SUITE), "one kernel per measurement"


def test_every_simulated_benchmark_has_its_hardware_declaration():
    assert set(BENCHMARKS) <= set(SUITE)


@pytest.mark.parametrize("name", sorted(BENCHMARKS))
def test_twin_and_kernel_share_name_unit_kind_and_sizes(name):
    hw, sim = SUITE[name], BENCHMARKS[name]
    assert hw.unit == sim.unit
    assert (hw.kind == LATENCY) == (sim.kind == SIM_LATENCY)
    assert hw.kind in (LATENCY, RATE)
    accepted = inspect.signature(sim.build).parameters
    for option, define in hw.twin.items():
        assert option in accepted, f"{name}: the generator takes no {option!r}"
        assert define in hw.defines, f"{name}: twin option {option} names no define"
    # the twin gets exactly the value the CUDA source is compiled with
    assert hw.twin_options(FACTS) == {o: hw.sizes(FACTS)[d] for o, d in hw.twin.items()}


def test_curves_declare_what_they_sweep():
    for b in SUITE.values():
        if b.kind == CURVE:
            define, points = b.sweep
            assert define in b.defines or define == "BLOCK", b.name
            assert len(points) >= 4
            assert all(evaluate(p, FACTS) > 0 for p in points)


def test_size_expressions_follow_the_gpu():
    small = dict(FACTS, L1_BYTES=16 * 1024)
    assert SUITE["l1_lat"].sizes(FACTS)["FOOTPRINT"] == 32 * 1024
    assert SUITE["l1_lat"].sizes(small)["FOOTPRINT"] == 4 * 1024
    assert evaluate("min(4096, SHMEM_PER_CTA) // 4", FACTS) == 1024
