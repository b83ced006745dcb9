"""Running an unmodified CUDA program on the simulated GPU: the program
loads accelsim's CUDA runtime library (libcudart.so.13 / .so.12, built from
cudart/) instead of NVIDIA's, which runs its kernels and copies on the
timing model and writes the result file read back here."""
from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from accelsim import _core
from accelsim._paths import data_dir
from accelsim.cuda.elf import read_elf
from accelsim.cuda.result import CudaResult, read_result
from accelsim.errors import AccelsimError, ConfigError, Interrupted, ProgramKilled
from accelsim.run_modes import intra_only

__all__ = ["run_cuda", "runtime_library_dir", "RECORD_MODES"]

RECORD_MODES = ("lowered", "ptx", "sass")
# Exit statuses the runtime library uses for its own stops (docs/cuda_apps.md).
EXIT_MAX_CYCLES, EXIT_INTERRUPTED = 124, 130
# How long a program stopped at its wall limit may take to write its result
# and end when no timeout says otherwise (the runtime polls about every 50 ms;
# a program in its own host code is ended by the runtime's watcher thread).
WALL_LIMIT_GRACE_S = 60.0


# What a signal that ends a program means, for the message that replaces a
# bare negative exit status.
SIGNAL_MEANINGS = {
    "SIGSEGV": "segmentation fault: a read or write of memory the process may not touch, such as host code "
               "dereferencing a device pointer",
    "SIGBUS": "bus error: an access to memory that cannot be backed (misaligned, or a truncated mapped file)",
    "SIGFPE": "arithmetic exception: an integer division by zero or overflow",
    "SIGILL": "illegal instruction: corrupted code, or a CPU feature this machine lacks",
    "SIGABRT": "abort: the program called abort(), e.g. a failed assert() or an uncaught C++ exception",
    "SIGKILL": "killed from outside: kill -9, a job scheduler's limit or the kernel's out-of-memory killer",
    "SIGTERM": "asked to terminate from outside (kill, a job scheduler)",
    "SIGPIPE": "wrote to a pipe nobody reads any more",
}


def killed_by(returncode: int) -> tuple[str, str]:
    """(name, meaning) of the signal a negative ``returncode`` says ended a program."""
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        name = f"signal {-returncode}"
    return name, SIGNAL_MEANINGS.get(name, "ended by that signal")


def runtime_library_dir() -> Path:
    """The folder holding the runtime library (installed beside accelsim._core)."""
    spec = importlib.util.find_spec("accelsim._core")
    here = Path(spec.origin).parent if spec and spec.origin else Path(__file__).resolve().parent.parent
    folder = here / "cudart_lib"
    if not any(folder.glob("libcudart.so.*")):
        raise AccelsimError(f"accelsim's CUDA runtime library is not built (looked in {folder}); reinstall "
                            "accelsim with the nvidia-cuda-runtime wheel present (pip install .)")
    return folder


def _program(argv: list[str], cwd) -> Path | None:
    """argv[0] as a file (PATH searched like the shell does), or None."""
    exe = argv[0]
    if os.sep in exe:
        p = Path(cwd or ".") / exe
        return p if p.is_file() else None
    found = shutil.which(exe)
    return Path(found) if found else None


def _check_program(argv: list[str], cwd, lib_dir: Path) -> Path | None:
    """Refuses a program that cannot use the runtime library; returns the
    library it will load (None: not an ELF program, e.g. a script)."""
    path = _program(argv, cwd)
    if path is None:
        raise AccelsimError(f"{argv[0]}: no such program")
    info = read_elf(path)
    if info is None:
        return None
    if info.cudart is None:
        if info.has_kernels:
            raise AccelsimError(f"{argv[0]} is linked statically against the CUDA runtime (nvcc's default), so it "
                                "cannot load the simulator's: rebuild it with `nvcc -cudart shared`")
        return None  # no CUDA in it directly (it may still load a library that uses CUDA)
    lib = lib_dir / info.cudart
    if not lib.is_file():
        have = ", ".join(sorted(p.name for p in lib_dir.glob("libcudart.so.*")))
        raise AccelsimError(f"{argv[0]} needs {info.cudart}; this build of accelsim has {have}")
    return lib


def _config_file(config, folder: Path) -> tuple[Path, str, int]:
    """The resolved config as the runtime's text (config/config_text.h)."""
    from accelsim.sim import _core_dict

    values, name = _core_dict(config)
    text = _core.config_text(values)
    path = folder / "config.txt"
    path.write_text(text)
    full = _core.config_from_text(text, str(path))
    return path, name, int(full["sm_version"])


def _environment(base, lib_dir: Path, preload: Path | None, settings: dict[str, str]) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    env["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (str(lib_dir), env.get("LD_LIBRARY_PATH", "")) if p)
    if preload is not None:  # wins over an RPATH that points at NVIDIA's library; after what the
        # caller preloads, since a sanitizer's runtime must come first in the list or the program aborts
        env["LD_PRELOAD"] = " ".join(p for p in (env.get("LD_PRELOAD", ""), str(preload)) if p)
    env.update(settings)
    return env


def _wait(proc: subprocess.Popen, program: str, timeout, capture: bool,
          wall_limit=None) -> tuple[int, str | None, str | None, bool]:
    """Waits for the program: (status, stdout, stderr, whether it was stopped
    at ``wall_limit``). A SIGINT to the launcher is forwarded to the program
    (a terminal's Ctrl-C reaches both; the runtime takes the two copies as
    one), so the runtime stops the simulation and writes the result before
    the program ends, whoever sent the signal. At ``wall_limit`` seconds the
    launcher sends that SIGINT itself; ``timeout`` (counted from the start)
    then bounds how long the program may take to write its result and end."""
    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGINT, lambda *_: proc.send_signal(signal.SIGINT)) if main else None
    stopped = False
    try:
        try:
            out, err = proc.communicate(timeout=_first_wait(timeout, wall_limit))
        except subprocess.TimeoutExpired:
            if wall_limit is None or (timeout is not None and timeout <= wall_limit):
                raise
            stopped = True
            proc.send_signal(signal.SIGINT)  # the runtime stops at its next poll and writes the run so far
            out, err = proc.communicate(timeout=(timeout - wall_limit) if timeout is not None else WALL_LIMIT_GRACE_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        limit = timeout if timeout is not None else wall_limit + WALL_LIMIT_GRACE_S
        raise AccelsimError(f"{program}: still running after {limit} s; stopped") from None
    finally:
        if main:
            signal.signal(signal.SIGINT, old)
    return proc.returncode, out if capture else None, err if capture else None, stopped


def _first_wait(timeout, wall_limit):
    """How long to wait before the first step: the wall limit's SIGINT or the timeout's kill."""
    limits = [t for t in (timeout, wall_limit) if t is not None]
    return min(limits) if limits else None


def _stderr_tail(stderr: str | None) -> str:
    return f" (stderr: {stderr.strip()[-500:]})" if stderr else ""


def _check_options(records: str, max_cycles, max_warp_insts, wall_limit) -> None:
    """ConfigError for an option run_cuda cannot take."""
    if records not in RECORD_MODES:
        raise ConfigError(f"records must be one of {', '.join(map(repr, RECORD_MODES))}, not {records!r}")
    if wall_limit is not None and (isinstance(wall_limit, bool) or not isinstance(wall_limit, (int, float))
                                   or not wall_limit > 0):
        raise ConfigError(f"wall_limit must be a positive number of seconds, not {wall_limit!r}")
    for name, value in (("max_cycles", max_cycles), ("max_warp_insts", max_warp_insts)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ConfigError(f"{name} must be a positive integer, not {value!r}")


def sample_setting(intra) -> str:
    """ACCELSIM_CUDA_SAMPLE for an IntraKernelSampling: ``intra:key=value,...``."""
    o = intra.core_options()
    return (f"intra:tolerance={o['tolerance']!r},window={o['window']},min_waves={o['min_waves']},"
            f"warm_tail={int(o['warm_tail'])}")


def run_cuda(argv, config="QV100", *, records: str = "lowered", max_cycles: int | None = None, out=None,
             save_trace=None, regs_per_thread: int = 32, arch: int | None = None, env: dict | None = None,
             cwd=None, capture_output: bool = False, timeout: float | None = None,
             flush_caches: bool = False, max_warp_insts: int | None = None,
             wall_limit: float | None = None, sample=None) -> CudaResult:
    """Runs the CUDA program ``argv`` (built with ``nvcc -cudart shared``) on
    the simulated GPU of ``config`` and returns a CudaResult: every kernel and
    copy it ran (``kernels``, ``copies``, ``streams``, counters), with its
    ``returncode``. Its stdout and stderr pass through (``capture_output``:
    kept in the result instead). ``records``: what each PTX instruction gives
    the timing model (as ``accelsim.Device``); ``max_cycles`` stops the
    program at that simulated cycle, keeping the result so far; ``out``: the
    result is also saved there (``accelsim.load_result`` reads it).
    ``regs_per_thread`` sets occupancy (PTX registers are virtual);
    ``arch``: the ISA table records use (default: the config's sm_version).
    ``flush_caches``: every kernel starts with an empty L2, as Nsight
    Compute measures kernels by default. ``max_warp_insts``: the warp
    instructions one warp may execute (default 2^24) before its kernel is an
    error that says why it loops. ``wall_limit``: after that many seconds
    of wall time the program is stopped as by Ctrl-C, and the result so far
    comes back with ``status`` ``wall_limit`` (``timeout``, counted from the
    start, still bounds the whole run: past it the program is killed and an
    AccelsimError raised, with no result).
    ``save_trace``: instead of timing, the launches are emulated in command
    order and written there as an Accel-Sim trace (kernelslist.g with its
    host-to-device copies; ``records`` picks the records), which
    ``Simulator.run`` replays; the result then lists no kernels.
    ``sample=accelsim.IntraKernelSampling(...)``: kernels of many CTA waves
    are timed until their waves are steady; their other CTAs then run
    functionally only (the program's results are a full run's) and their
    cycles are projected (status ``sampled``, ``cycles_bound``;
    docs/sampling.md).
    Ctrl-C stops the simulation and raises Interrupted with the result so far;
    a program that dies of a signal (SIGSEGV in its host code, ...) raises
    ProgramKilled naming it."""
    argv = [str(a) for a in ([argv] if isinstance(argv, (str, os.PathLike)) else argv)]
    if not argv:
        raise AccelsimError("run_cuda needs a program to run")
    _check_options(records, max_cycles, max_warp_insts, wall_limit)
    intra = intra_only(sample, "run_cuda(sample=...)")
    lib_dir = runtime_library_dir()
    preload = _check_program(argv, cwd, lib_dir)
    with tempfile.TemporaryDirectory(prefix="accelsim-cuda-") as tmp:
        folder = Path(tmp)
        cfg_path, _, sm_version = _config_file(config, folder)
        settings = {"ACCELSIM_CUDA_CONFIG": str(cfg_path), "ACCELSIM_CUDA_DATA": str(data_dir()),
                    "ACCELSIM_CUDA_RESULT": str(folder / "result.json"), "ACCELSIM_CUDA_RECORDS": records,
                    "ACCELSIM_CUDA_REGS": str(int(regs_per_thread)),
                    "ACCELSIM_CUDA_ARCH": str(int(arch if arch is not None else sm_version))}
        if max_cycles is not None:
            settings["ACCELSIM_CUDA_MAX_CYCLES"] = str(max_cycles)
        if flush_caches:
            settings["ACCELSIM_CUDA_FLUSH_CACHES"] = "1"
        if max_warp_insts is not None:
            settings["ACCELSIM_CUDA_MAX_WARP_INSTS"] = str(max_warp_insts)
        if intra is not None:
            settings["ACCELSIM_CUDA_SAMPLE"] = sample_setting(intra)
        from accelsim.ptx.ptxas import find_tool

        if cuobjdump := find_tool("cuobjdump"):  # the fallback for fat binaries the runtime cannot decode
            settings["ACCELSIM_CUDA_CUOBJDUMP"] = cuobjdump
        if records == "sass":  # the real SASS of each PTX line, from ptxas + nvdisasm (before the run)
            from accelsim.cuda.sass_guides import write_sass_guides

            (folder / "sass").mkdir()
            program = _program(argv, cwd)
            if program is not None and read_elf(program) is not None:
                write_sass_guides(program, folder / "sass", int(settings["ACCELSIM_CUDA_ARCH"]), sm_version)
            settings["ACCELSIM_CUDA_SASS_GUIDES"] = str(folder / "sass")
        if save_trace is not None:
            (folder / "dump").mkdir()
            settings["ACCELSIM_CUDA_TRACE"] = str(folder / "dump")
        pipe = subprocess.PIPE if capture_output else None
        start = time.perf_counter()
        try:
            proc = subprocess.Popen(argv, cwd=cwd, env=_environment(env, lib_dir, preload, settings),
                                    stdout=pipe, stderr=pipe, text=True if capture_output else None)
        except OSError as e:
            raise AccelsimError(f"{argv[0]}: cannot run ({e.strerror})") from None
        code, stdout, stderr, at_wall_limit = _wait(proc, argv[0], timeout, capture_output, wall_limit)
        wall = time.perf_counter() - start
        result_file = folder / "result.json"
        if code < 0 and not result_file.is_file():
            name, meaning = killed_by(code)
            raise ProgramKilled(f"{argv[0]} died of {name} ({meaning}) before its end, so there is no simulation "
                                f"result{_stderr_tail(stderr)}", name, meaning, code)
        if not result_file.is_file():
            raise AccelsimError(f"{argv[0]} exited with status {code} without a simulation result: it did not "
                                f"load accelsim's CUDA runtime, or died before its end{_stderr_tail(stderr)}")
        result = read_result(result_file, workload=" ".join(argv), wall_time_s=wall, returncode=code,
                             stdout=stdout, stderr=stderr)
        if at_wall_limit and result.status == "interrupted":  # our own SIGINT, not the user's Ctrl-C
            result.status, result.interrupted = "wall_limit", False
        if save_trace is not None:
            from accelsim.cuda.trace import write_trace_from_dump

            result.extra["trace"] = write_trace_from_dump(folder / "dump", Path(save_trace))
    if out is not None:
        result.save(out)
    if result.status == "interrupted":
        raise Interrupted(result)
    return result
