"""The CUDA runtime library and its launcher (accelsim cuda / run_cuda):
what the library exports, what it refuses, run control, events, device
properties, results, and the same cycles as the same kernels launched from
Python."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from cuda_util import PROGRAMS, REPO, build, need_toolchain, program

SPECIAL = PROGRAMS / "special"


def special(name: str, flags: tuple[str, ...] = ("-O2",)):
    return build(SPECIAL / f"{name}.cu", flags)


def _dynamic_symbols(lib) -> dict[str, str]:
    """{name: version} of the defined dynamic symbols (nm -D)."""
    out = subprocess.run(["nm", "-D", "--defined-only", str(lib)], capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in ("T", "W") and "@" in parts[2]:
            name, _, version = parts[2].partition("@")
            syms[name] = version.lstrip("@")
    return syms


def test_config_text_round_trips_every_bundled_config():
    from accelsim import _core, list_configs
    from accelsim.sim import _core_dict

    for name in list_configs():
        values, _ = _core_dict(name)
        text = _core.config_text(values)
        assert text.startswith("accelsim-config 1\n")
        assert _core.config_from_text(text, name) == _core.check_config(values), name


def test_config_text_errors_name_file_and_line():
    from accelsim import _core
    from accelsim.errors import ConfigError

    with pytest.raises(ConfigError, match=r"sm_count.*cfg\.txt:2: .many. is not an integer"):
        _core.config_from_text("accelsim-config 1\nsm_count many\n", "cfg.txt")


@pytest.mark.parametrize("major", [13, 12])
def test_library_has_the_real_soname_version_node_and_exports(major):
    from accelsim.cuda import runtime_library_dir
    from accelsim.cuda.elf import read_elf
    from accelsim.errors import AccelsimError

    if shutil.which("nm") is None:
        pytest.skip("nm (binutils) is not installed")
    try:
        lib = runtime_library_dir() / f"libcudart.so.{major}"
    except AccelsimError as e:
        pytest.skip(str(e))
    if not lib.is_file():
        pytest.skip(f"libcudart.so.{major} was not built (its CUDA runtime headers were missing)")
    assert read_elf(lib).soname == f"libcudart.so.{major}"
    ours = _dynamic_symbols(lib)
    wanted = (REPO / "cudart" / f"exports_{major}.txt").read_text().split()
    assert set(wanted) <= set(ours)
    assert {ours[n] for n in wanted} == {f"libcudart.so.{major}"}
    assert all(n.startswith(("cuda", "__cuda")) for n in ours)  # nothing of the core leaks out
    try:  # the installed NVIDIA library, when its wheel is there: we export all it does
        import nvidia

        real = [p for root in nvidia.__path__ for p in
                (root + f"/cu{major}/lib/libcudart.so.{major}", root + f"/cuda_runtime/lib/libcudart.so.{major}")
                if os.path.isfile(p)]
    except ImportError:
        real = []
    for path in real:
        assert set(_dynamic_symbols(path)) <= set(ours), path


def test_unimplemented_call_is_named_and_ends_the_program():
    from accelsim.cuda import run_cuda

    r = run_cuda([special("unimplemented")], capture_output=True)
    assert r.returncode == 2 and r.status == "unimplemented"
    assert "cudaGraphCreate is not implemented" in r.stderr
    assert "before the graph" in r.stdout and "after the graph" not in r.stdout
    assert r.num_kernels == 1  # what ran before it is in the result


def test_statically_linked_program_is_told_the_flag(tmp_path):
    from accelsim.cuda import run_cuda
    from accelsim.cuda.nvcc import find_nvcc
    from accelsim.errors import AccelsimError

    need_toolchain()
    exe = tmp_path / "static"
    proc = subprocess.run([str(find_nvcc()), "-o", str(exe), str(PROGRAMS / "sgemm.cu"), "-I", str(PROGRAMS)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"this nvcc cannot link statically: {proc.stderr[-300:]}")
    with pytest.raises(AccelsimError, match="linked statically.*-cudart shared"):
        run_cuda([exe])


def test_binary_without_ptx_is_told_how_to_embed_it():
    from accelsim.cuda import run_cuda

    exe = build(PROGRAMS / "sgemm.cu", ("-O2", "-gencode", "arch=compute_75,code=sm_75"), name="sgemm_sass_only")
    r = run_cuda([exe], capture_output=True)
    assert r.status == "error" and r.returncode == 1
    assert "holds SASS but no PTX" in r.error and "compute_75" in r.error


def test_uncompressed_and_size_compressed_fat_binaries_run():
    from accelsim.cuda import run_cuda

    for mode in ("none", "size"):  # size: Zstandard entries
        exe = build(PROGRAMS / "scan.cu", ("-O2", f"-compress-mode={mode}"), name=f"scan_{mode}")
        r = run_cuda([exe], capture_output=True)
        assert r.returncode == 0 and "scan: PASSED" in r.stdout, mode


def test_cuobjdump_is_the_fallback_for_fat_binaries_the_runtime_cannot_decode():
    """Without libzstd the runtime cannot decode nvcc 13's compressed
    entries; cuobjdump (the nvidia-cuda-cuobjdump wheel) then gives the PTX
    (ACCELSIM_CUDA_FORCE_CUOBJDUMP takes that path on any machine)."""
    import os

    from accelsim.cuda import run_cuda
    from accelsim.ptx.ptxas import find_tool

    if find_tool("cuobjdump") is None:
        pytest.skip("no cuobjdump (pip install nvidia-cuda-cuobjdump)")
    exe = build(PROGRAMS / "scan.cu", ("-O2", "-compress-mode=size"), name="scan_size")
    r = run_cuda([exe], capture_output=True, env={**os.environ, "ACCELSIM_CUDA_FORCE_CUOBJDUMP": "1"})
    assert r.returncode == 0 and "scan: PASSED" in r.stdout, r.stderr
    plain = run_cuda([exe], capture_output=True)
    assert list(r.kernels["cycles"]) == list(plain.kernels["cycles"])


def test_max_cycles_stops_the_program_and_keeps_the_result(tmp_path):
    from accelsim import load_result
    from accelsim.cuda import run_cuda

    r = run_cuda([special("forever")], max_cycles=60_000, capture_output=True, out=tmp_path / "res", timeout=300)
    assert r.returncode == 124 and r.status == "max_cycles" and not r.completed
    assert "--max-cycles 60000" in r.stderr
    assert r.num_kernels >= 2 and r.total_cycles <= 60_000
    assert list(r.kernels["status"])[-1] == "cut_off"
    assert len(load_result(tmp_path / "res").kernels) == r.num_kernels


def test_wall_limit_stops_the_program_and_keeps_the_result(tmp_path):
    """--wall-limit stops the program as Ctrl-C does, after that many
    seconds: the result so far comes back (status wall_limit, no exception)
    and the command exits with 124 as at --max-cycles."""
    from accelsim.cuda import run_cuda
    from accelsim.errors import ConfigError

    exe = special("forever")
    r = run_cuda([exe], capture_output=True, wall_limit=2, timeout=300)
    assert r.status == "wall_limit" and not r.completed and not r.interrupted
    assert r.stdout == "running\n" and r.num_kernels >= 1
    assert r.kernels["warp_instructions"].sum() > 0 and r.extra["runtime_wall"]["simulation_s"] > 0
    with pytest.raises(ConfigError, match="wall_limit"):
        run_cuda([exe], wall_limit=0)
    proc = subprocess.run([sys.executable, "-m", "accelsim", "cuda", "--wall-limit", "2", "--out", str(tmp_path / "r"),
                           "--", str(exe)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 124, proc.stderr
    assert "(stopped at --wall-limit)" in proc.stderr


def test_ctrl_c_stops_the_program_and_keeps_the_result(tmp_path):
    exe = special("forever")
    out = tmp_path / "res"
    proc = subprocess.Popen([sys.executable, "-m", "accelsim", "cuda", "--out", str(out), "--", str(exe)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stdout.readline().strip() == "running"  # one kernel simulated: the runtime is up
        time.sleep(0.3)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the launcher and the program
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    from accelsim import load_result

    assert len(load_result(out).kernels) >= 1


def test_events_report_simulated_time_and_properties_come_from_the_config():
    from accelsim.config import load_config
    from accelsim.cuda import run_cuda

    r = run_cuda([special("event_timing")], "TITANV", capture_output=True)
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("elapsed"))
    ms = float(line.split()[1])
    memset = r.copies[-1]
    assert memset["direction"] == "Memset"
    kernel = r.kernels.iloc[0]
    clock_mhz = load_config("TITANV")["core_clock"]
    want = (kernel["end_cycle"] - memset["end_cycle"]) / (clock_mhz * 1000)
    assert ms == pytest.approx(want, rel=1e-6)
    sms = load_config("TITANV")["sm_count"]
    assert f"accelsim TITANV (simulated), {sms} SMs (attribute {sms}), warp 32" in r.stdout
    assert f"occupancy {kernel['ctas_per_sm']} blocks of 256, 32 registers" in r.stdout


@pytest.mark.parametrize("records", ["lowered", "ptx", "sass"])
def test_kernels_take_the_same_cycles_as_from_python(records):
    """reduction.cu's two launches, replayed through accelsim.Device with
    the same allocations, copies and PTX: identical cycles per kernel, in
    every record mode (sass: ptxas's registers and SASS in both)."""
    from accelsim import Device, _core
    from accelsim.cuda import run_cuda
    from accelsim.ptx import Module

    if records == "sass":
        from accelsim.errors import PtxError
        from accelsim.ptx.sass_guided import require_tools

        try:
            require_tools()
        except PtxError as e:
            pytest.skip(str(e))
    exe = program("reduction")
    r = run_cuda([exe], capture_output=True, records=records)
    assert r.returncode == 0
    mod = Module(_core.fatbin_ptx(str(exe))[0][1], name="reduction")
    k = mod.get_function("block_sum")
    n, threads = 1 << 16, 128
    blocks = (n + 2 * threads - 1) // (2 * threads)
    state, h = 7, np.empty(n, np.float32)  # the program's xorshift data
    for i in range(n):
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        h[i] = state % 100
    dev = Device("QV100", records=records)
    d_in, d_part, d_out = dev.empty(n), dev.empty(blocks), dev.empty(1)
    d_in.copy_from_host(h)
    k[blocks, threads, 0, threads * 4](d_in, d_part, np.int32(n))
    k[1, threads, 0, threads * 4](d_part, d_out, np.int32(blocks))
    assert d_out.copy_to_host()[0] == h.sum()
    py = dev.results[-1]
    assert list(py.kernels["cycles"]) == list(r.kernels["cycles"])
    assert list(py.kernels["warp_instructions"]) == list(r.kernels["warp_instructions"])
    assert py.total_cycles == r.total_cycles


def test_cli_passes_output_and_exit_status_through_and_saves(tmp_path):
    from accelsim import load_result

    exe = program("histogram")
    proc = subprocess.run([sys.executable, "-m", "accelsim", "cuda", "--config", "TITANV", "--out",
                           str(tmp_path / "r"), "--", str(exe)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "histogram: PASSED"
    assert "1 kernels, 3 copies" in proc.stderr and "TITANV" in proc.stderr
    saved = load_result(tmp_path / "r")
    assert list(saved.kernels["name"]) == ["histogram(unsigned char const*, int, unsigned int*)"]
    assert saved.streams["kernels"].sum() == 1
    bad = subprocess.run([sys.executable, "-m", "accelsim", "cuda", "--", str(tmp_path / "missing")],
                         capture_output=True, text=True)
    assert bad.returncode == 1 and "no such program" in bad.stderr


def test_cuda12_programs_load_the_cuda12_library(tmp_path):
    """A program linked against CUDA 12's libcudart (the
    nvidia-cuda-runtime-cu12 wheel) needs libcudart.so.12 at its version
    node; the launcher gives it accelsim's."""
    from accelsim.cuda import run_cuda, runtime_library_dir
    from accelsim.cuda.elf import read_elf
    from accelsim.cuda.nvcc import find_nvcc

    need_toolchain()
    if not (runtime_library_dir() / "libcudart.so.12").is_file():
        pytest.skip("libcudart.so.12 was not built")
    try:
        import nvidia

        real = next(p for root in nvidia.__path__ for p in [os.path.join(root, "cuda_runtime", "lib")]
                    if os.path.isfile(os.path.join(p, "libcudart.so.12")))
    except (ImportError, StopIteration):
        pytest.skip("the nvidia-cuda-runtime-cu12 wheel is not installed")
    link = tmp_path / "link"
    link.mkdir()
    (link / "libcudart.so").symlink_to(os.path.join(real, "libcudart.so.12"))
    exe = tmp_path / "sgemm12"
    proc = subprocess.run([str(find_nvcc()), "-cudart", "shared", "-O2", "-L", str(link), "-I", str(PROGRAMS),
                           "-o", str(exe), str(PROGRAMS / "sgemm.cu")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert read_elf(exe).cudart == "libcudart.so.12"
    r = run_cuda([exe], capture_output=True)
    assert r.returncode == 0 and "sgemm: PASSED" in r.stdout, r.stderr


def test_save_trace_writes_a_trace_that_replays_with_the_same_cycles(tmp_path):
    from accelsim import Simulator
    from accelsim.cuda import run_cuda

    exe = program("sgemm")
    live = run_cuda([exe], capture_output=True)
    traced = run_cuda([exe], capture_output=True, save_trace=tmp_path / "trace")
    assert traced.returncode == 0 and "sgemm: PASSED" in traced.stdout  # emulation alone: the right answer
    assert traced.num_kernels == 0 and traced.extra["trace"] == tmp_path / "trace" / "kernelslist.g"
    listing = (tmp_path / "trace" / "kernelslist.g").read_text().splitlines()
    assert [ln.split(",")[0] for ln in listing] == ["MemcpyHtoD", "MemcpyHtoD", "kernel-1.traceg"]
    replay = Simulator("QV100").run(tmp_path / "trace" / "kernelslist.g")
    assert list(replay.kernels["cycles"]) == list(live.kernels["cycles"])
    assert list(replay.kernels["warp_instructions"]) == list(live.kernels["warp_instructions"])


def test_runtime_overhead_is_a_few_percent_of_the_simulation():
    """Time inside the runtime's API calls outside the simulation runs
    (registration, PTX parsing, queueing, copies of host data), summed over
    programs with many launches and synchronizations, against the
    simulation's own time: the target is <= 5 %."""
    from accelsim.cuda import run_cuda

    runtime = simulation = 0.0
    for name in ("lud", "bfs", "bitonic"):  # 94 launches; a host loop of copies; 66 launches
        wall = run_cuda([program(name)], capture_output=True).extra["runtime_wall"]
        runtime += wall["api_s"] - wall["simulation_s"]
        simulation += wall["simulation_s"]
    assert 0 <= runtime <= 0.05 * simulation, (runtime, simulation)


def test_per_thread_default_stream_programs_run():
    """nvcc --default-stream per-thread makes the program call the _ptds /
    _ptsz entry points."""
    from accelsim.cuda import run_cuda
    from accelsim.cuda.elf import read_elf

    exe = special("per_thread_stream", ("-O2", "--default-stream", "per-thread"))
    assert read_elf(exe).cudart == "libcudart.so.13"
    r = run_cuda([exe], capture_output=True)
    assert r.returncode == 0 and "PASSED" in r.stdout, r.stderr


def test_flush_caches_starts_every_kernel_with_an_empty_l2(tmp_path):
    """`accelsim cuda --flush-caches`: reduction.cu's kernels find nothing
    in L2 (neither the uploaded input nor the first kernel's partial sums),
    as Nsight Compute measures kernels; the answer is the same."""
    from accelsim import load_result
    from accelsim.cuda import run_cuda

    exe = program("reduction")
    warm = run_cuda([exe], capture_output=True)
    proc = subprocess.run([sys.executable, "-m", "accelsim", "cuda", "--flush-caches", "--quiet", "--out",
                           str(tmp_path / "r"), "--", str(exe)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and "PASSED" in proc.stdout, proc.stderr
    cold = load_result(tmp_path / "r").kernels
    assert all(c >= w for c, w in zip(cold["dram_reads"], warm.kernels["dram_reads"]))
    assert cold["dram_reads"].sum() > warm.kernels["dram_reads"].sum()
    assert cold["cycles"].sum() > warm.kernels["cycles"].sum()


@pytest.mark.parametrize("config, gib", [("QV100", 32), ("RTX2060", 6)])
def test_device_memory_is_the_configs_capacity(config, gib):
    """cudaMalloc beyond what is free fails with cudaErrorMemoryAllocation,
    cudaFree gives the bytes back, totalGlobalMem and cudaMemGetInfo report
    the config's dram_capacity (pages are made on first touch: 20 GiB
    allocated cost nothing)."""
    from accelsim.cuda import run_cuda

    r = run_cuda([special("memory_cap")], config, capture_output=True)
    assert r.returncode == 0 and "memory_cap: PASSED" in r.stdout, r.stdout + r.stderr
    assert f"total {gib} GiB" in r.stdout and "second: out of memory" in r.stdout


def test_sigint_to_the_launcher_alone_stops_the_program_and_keeps_the_result(tmp_path):
    """kill -INT of the launcher (a job scheduler, not a terminal): it
    forwards the signal, the runtime stops and writes the result."""
    exe = special("forever")
    out = tmp_path / "res"
    proc = subprocess.Popen([sys.executable, "-m", "accelsim", "cuda", "--out", str(out), "--", str(exe)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stdout.readline().strip() == "running"
        proc.send_signal(signal.SIGINT)  # the launcher only
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    from accelsim import load_result

    assert len(load_result(out).kernels) >= 1


def test_max_warp_insts_bounds_each_warp_and_the_message_names_the_launcher_option():
    """--max-warp-insts (run_cuda(max_warp_insts=...)): a warp beyond it is
    an error saying why it loops, whose hint is the launcher's option, not
    the Python Device's."""
    from accelsim.cuda import run_cuda
    from accelsim.errors import ConfigError

    r = run_cuda([special("forever")], capture_output=True, max_warp_insts=50)
    assert r.returncode == 1 and r.status == "error", r.stderr
    assert "still running after 50 warp instructions" in r.stderr
    assert "accelsim cuda --max-warp-insts N (now 50)" in r.stderr and "Device(" not in r.stderr
    with pytest.raises(ConfigError, match="max_warp_insts must be a positive integer"):
        run_cuda([special("forever")], max_warp_insts=0)


@pytest.mark.parametrize("how, sig, says", [
    ("device", "SIGSEGV", "That address is simulated device memory"),
    ("null", "SIGSEGV", "at address 0x14"),
    ("abort", "SIGABRT", "called abort()"),
])
def test_a_program_dying_of_a_signal_in_its_host_code_is_told_which_and_why(how, sig, says):
    from accelsim.cuda import run_cuda
    from accelsim.errors import ProgramKilled

    with pytest.raises(ProgramKilled) as e:
        run_cuda([special("host_fault"), how], capture_output=True)
    assert e.value.signal == sig and e.value.returncode == -getattr(signal, sig)
    assert f"died of {sig} (" in str(e.value) and e.value.meaning in str(e.value)
    assert "in its own host code" in str(e.value)  # the runtime's line, in the stderr tail
    assert says in str(e.value)


def test_cli_names_the_signal_and_exits_as_a_shell_would():
    exe = special("host_fault")
    proc = subprocess.run([sys.executable, "-m", "accelsim", "cuda", "--", str(exe), "device"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 128 + signal.SIGSEGV, proc.stderr
    assert "kernel done" in proc.stdout
    assert "died of SIGSEGV (segmentation fault" in proc.stderr
    assert "simulated device memory" in proc.stderr and "Traceback" not in proc.stderr


def test_an_unsupported_instruction_stops_only_the_kernel_that_uses_it():
    from accelsim.cuda import run_cuda

    r = run_cuda([special("partly_unsupported")], capture_output=True)
    assert "doubled: PASSED" in r.stdout and "profiled: ran" not in r.stdout
    assert r.status == "error" and r.returncode == 1 and r.num_kernels == 1
    # file (the program's PTX), line and the instruction, as a parse error would name them
    assert "[PTX compute_" in r.error and "unknown opcode 'pmevent'" in r.error and "(at 'pmevent')" in r.error
    assert "_Z8profiledPi" in r.error or "profiled" in r.error


def test_runtime_preload_comes_after_what_the_caller_preloads(tmp_path):
    """A sanitizer's runtime (or a profiler's shim) preloaded by the caller
    must stay first in LD_PRELOAD, or the program aborts at start."""
    from accelsim.cuda.launcher import _environment

    runtime = tmp_path / "libcudart.so.12"
    env = _environment({"LD_PRELOAD": "/opt/libasan.so"}, tmp_path, runtime, {"ACCELSIM_CUDA_ARCH": "80"})
    assert env["LD_PRELOAD"].split() == ["/opt/libasan.so", str(runtime)]
    assert env["LD_LIBRARY_PATH"].split(os.pathsep)[0] == str(tmp_path)
    assert _environment({}, tmp_path, runtime, {})["LD_PRELOAD"] == str(runtime)


def test_a_budget_that_ends_before_any_kernel_starts_still_saves_the_result(tmp_path):
    """Its per-kernel statistics are empty tables, not a reshape error."""
    from accelsim import load_result
    from accelsim.cuda import run_cuda

    r = run_cuda([special("copy_first")], max_cycles=2_000, capture_output=True, out=tmp_path / "res", timeout=300)
    assert r.returncode == 124 and r.status == "max_cycles", r.stderr
    assert "Traceback" not in r.stderr and r.total_cycles <= 2_000
    assert load_result(tmp_path / "res").total_cycles == r.total_cycles
