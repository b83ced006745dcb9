# Type stubs of the C++ extension (bindings/register_*.cpp), for editors and
# mypy. The public API wraps these; tests/test_typing.py checks that every
# name declared here exists in the built module.
from collections.abc import Callable
from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt

INST_RECORD_SIZE: int

# ---- config (register_config.cpp) -------------------------------------------
def exec_unit_fields() -> list[dict[str, Any]]:
    """The numeric fields of an exec_units entry: name, kind, default, range, required, doc."""

def param_declarations() -> list[dict[str, Any]]:
    """Every scalar parameter: name, kind, default, min, max, choices, doc."""

def config_text(config: dict[str, Any], /) -> str: ...
def config_from_text(text: str, where: str = ...) -> dict[str, Any]: ...
def fatbin_ptx(path: str, sm_version: int = ...) -> list[tuple[int, str]]: ...
def check_config(config: dict[str, Any], /) -> dict[str, Any]:
    """Builds the C++ config from canonical values, validates it (raises
    accelsim.ConfigError), returns it back as a dict."""

# ---- traces (register_trace.cpp) ---------------------------------------------
class IsaRegistry:
    def __init__(self, dir: str, units: list[tuple[str, str]] = ..., /) -> None: ...
    @property
    def dir(self) -> str: ...
    def versions(self) -> list[int]: ...
    def table(self, version: SupportsIndex, /) -> tuple[str, str, list[Any], list[str]]: ...

class KernelTrace:
    def __init__(self, path: str, registry: IsaRegistry) -> None: ...
    @property
    def info(self) -> dict[str, Any]: ...
    @property
    def opcodes(self) -> list[tuple[str, int, int, int]]: ...
    @property
    def unit_names(self) -> list[str]: ...
    def next_block(self) -> tuple[int, tuple[int, int, int], npt.NDArray[np.uint8],
                                  npt.NDArray[Any], npt.NDArray[Any]] | None:
        """(index, coord, records, addresses, warp begins), None after the last block."""
    def skip(self, count: SupportsIndex) -> int: ...
    def rewind(self) -> None: ...
    def counts(self, matrices: bool = True) -> dict[str, Any]: ...

def read_command_list(path: str) -> list[tuple[str, int, str, str, int, int]]:
    """(kind, line, text, kernel_path, address, bytes) per kernelslist.g command;
    kind is "kernel", "memcpy_htod" or "other"."""

def kernel_columns() -> list[tuple[str, str]]:
    """(name, doc) of every per-kernel column, in table order."""

def read_kernel_header(path: str) -> dict[str, Any]:
    """path, name, id, stream and binary_version of a kernel trace (header only)."""

def profile_kernel(path: str, registry: IsaRegistry, max_blocks: int) -> dict[str, Any]:
    """A kernel's sampling profile from its first max_blocks thread blocks (0: all):
    info (the header), blocks, complete, warp/thread instructions, by_unit,
    by_space, global_bytes, global_lines, line_sample (a hash-chosen sample of the lines
    touched, the same lines in every kernel), header_bytes, block_bytes."""

# ---- statistics (register_stats.cpp) -----------------------------------------
class RunStats:
    def __init__(self, stream_slots: SupportsIndex = 1) -> None: ...
    def families(self) -> list[str]: ...
    def info(self, name: str) -> dict[str, Any]: ...
    def counters(self, name: str) -> npt.NDArray[np.uint64]: ...
    def counter_list(self, name: str) -> list[int]: ...
    def kernel_counters(self, name: str) -> npt.NDArray[np.uint64]: ...
    @property
    def stream_ids(self) -> list[int]: ...
    @property
    def kernel_rows(self) -> int: ...

# ---- simulation (register_sim.cpp) ---------------------------------------------
class WorkloadRun:
    @property
    def done(self) -> bool: ...
    def step(self, on_poll: Callable[[dict[str, Any]], Any] | None = None,
             interval_ms: int = 50) -> bool: ...
    def progress(self) -> dict[str, Any]: ...
    def interrupt(self) -> None: ...
    def last_kernel(self) -> dict[str, Any]: ...
    def finished_kernels(self) -> list[dict[str, Any]]: ...
    def result(self) -> dict[str, Any]: ...

class Simulator:
    def __init__(self, config: dict[str, Any], isa_dir: str) -> None: ...
    def start(self, path: str, max_cycles: int | None = None,
              kernels: list[int] | None = None, options: dict[str, Any] | None = None) -> WorkloadRun:
        """options: warmup (command positions), replay (positions replayed into the caches), first_command, end_command,
        count_from, flush, intra {tolerance, window, min_waves}."""
    def run(self, path: str, max_cycles: int | None = None,
            kernels: list[int] | None = None) -> dict[str, Any]: ...
    def config(self) -> dict[str, Any]:
        """The config it was built from, canonical values, defaults included."""
    def session(self, max_streams: SupportsIndex = 32) -> GpuSession:
        """One GPU of this config kept across runs."""

class GpuSession:
    """One GPU kept across runs (a Device): clock and caches go on."""
    @property
    def now(self) -> int:
        """Core cycles simulated over all the session's runs."""
    @property
    def resets(self) -> int:
        """Runs that had to start on a fresh GPU (after a cut-short or failed run)."""
    def mark(self) -> None:
        """Opens a window of runs (Device.synchronize's)."""
    def stats_since_mark(self) -> RunStats:
        """Statistics of every run since mark() (or since the last fresh GPU)."""

# ---- PTX front end (register_ptx.cpp) -------------------------------------------
# Anything exposing the buffer protocol (a contiguous NumPy array, bytes,
# memoryview); typing.Buffer needs Python 3.12, so spelled out here.
_Buffer = npt.NDArray[Any] | bytes | bytearray | memoryview

class PtxTables:
    """The opcode table (parsing), lowering table and ISA registry (records)."""
    def __init__(self, opcodes: str, lowering: str, isa_dir: str,
                 unit_overrides: list[tuple[str, str]] = ...) -> None:
        """``unit_overrides``: (SASS opcode, unit class) pairs, a config's opcode_units."""

class PtxModule:
    @staticmethod
    def parse(text: str, path: str, tables: PtxTables) -> PtxModule:
        """Parses PTX text (raises accelsim.PtxError naming path, line, column)."""
    @property
    def path(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def target(self) -> str: ...
    @property
    def sm(self) -> int: ...
    def kernels(self) -> list[dict[str, Any]]:
        """Each defined .entry: name, line, params (name, type, size, align,
        offset, pointer), param_bytes, shared_bytes, local_bytes, registers."""
    def check_kernel(self, name: str) -> None:
        """Raises the PtxError a launch of kernel ``name`` would meet before it
        runs (an instruction the parser kept as unsupported, a call without a
        body, recursion)."""
    def globals(self) -> list[dict[str, Any]]:
        """Each module-scope .global / .const: name, size, align, const, init (bytes)."""

class DeviceMemory:
    def __init__(self) -> None: ...
    def allocate(self, bytes: SupportsIndex) -> int: ...
    def write(self, addr: SupportsIndex, data: _Buffer, /) -> None: ...
    def read(self, addr: SupportsIndex, n: SupportsIndex, /) -> bytes: ...
    def fill(self, addr: SupportsIndex, value: SupportsIndex, n: SupportsIndex, /) -> None: ...
    def add_texture(self, ptr: SupportsIndex, count: SupportsIndex, elem_bytes: SupportsIndex,
                    kind: str, /) -> int:
        """A texture object handle over linear memory; kind "f", "i" or "u"."""
    def add_texture_object(self, desc: dict[str, Any], /) -> int:
        """A texture or surface object handle from accelsim.ptx.textures.texture_args's description."""
    @property
    def bytes_allocated(self) -> int: ...

class RecordMode:
    """What the timing model sees per executed PTX instruction."""
    lowered: RecordMode
    ptx: RecordMode
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...

class PtxLaunch:
    """One kernel launch (sim/ptx_commands.h): keyword arguments only."""
    def __init__(self, *, module: PtxModule, kernel: str, grid: tuple[int, int, int] | list[int],
                 block: tuple[int, int, int] | list[int], memory: DeviceMemory, params: bytes = ...,
                 globals: list[int] = ..., stream: SupportsIndex = 0, dyn_shared: SupportsIndex = 0,
                 regs_per_thread: SupportsIndex = 32, static_shared: SupportsIndex = -1,
                 records: RecordMode = ..., sass: dict[int, list[str]] | None = None,
                 sass_source: str | None = None,
                 sass_loops: list[tuple[list[int], int, dict[int, list[str]], list[tuple[int, str]],
                                        list[list[tuple[int, str]]]]] = ...,
                 binary_version: SupportsIndex = 0, sm_count: SupportsIndex = 80,
                 max_warp_insts: SupportsIndex = ..., chunk_records: SupportsIndex = 128) -> None: ...
    @property
    def module(self) -> PtxModule: ...
    @property
    def kernel(self) -> str: ...
    @property
    def grid(self) -> tuple[int, int, int]: ...
    @property
    def block(self) -> tuple[int, int, int]: ...
    @property
    def params(self) -> bytes: ...
    @property
    def globals(self) -> list[int]: ...
    @property
    def stream(self) -> int: ...
    @property
    def dyn_shared(self) -> int: ...
    @property
    def regs_per_thread(self) -> int: ...
    @property
    def static_shared(self) -> int: ...
    @property
    def records(self) -> RecordMode: ...
    @property
    def sass_source(self) -> str | None: ...
    @property
    def binary_version(self) -> int:
        """The SASS generation of this launch's records; 0: the run's."""
    @property
    def sm_count(self) -> int: ...
    @property
    def max_warp_insts(self) -> int: ...
    @property
    def chunk_records(self) -> int: ...

class PtxCopy:
    """One copy on a copy engine: keyword arguments only. ``stream`` None:
    synchronous; ``data``: host-to-device bytes; ``host``: the array a
    device-to-host copy fills."""
    def __init__(self, *, address: SupportsIndex, bytes: SupportsIndex, to_host: bool = False,
                 stream: SupportsIndex | None = None, memory: DeviceMemory | None = None,
                 data: bytes | None = None, host: _Buffer | None = None, fill: bytes | None = None) -> None: ...
    @property
    def address(self) -> int: ...
    @property
    def bytes(self) -> int: ...
    @property
    def to_host(self) -> bool: ...
    @property
    def stream(self) -> int | None: ...
    @property
    def is_fill(self) -> bool:
        """A fill (cudaMemset): ``fill``'s bytes set as the copy starts."""
    def apply(self) -> None:
        """Moves the copy's bytes now, untimed."""

class PtxBlocks:
    """One launch's thread blocks, emulated one at a time (save_trace)."""
    def __init__(self, tables: PtxTables, launch: PtxLaunch, binary_version: SupportsIndex,
                 id: SupportsIndex) -> None: ...
    def header(self) -> dict[str, Any]:
        """name, id, grid, block, shmem, nregs, binary_version, stream, shmem_base, local_base."""
    def next_block(self, on_poll: Callable[[], Any] | None = None
                   ) -> tuple[tuple[int, int, int], bytes, list[int], bytes] | None:
        """(coord, raw records, warp begins, addresses); None after the last block.
        Ctrl-C and ``on_poll()`` are handled about every 50 ms while the block is
        emulated; an exception from either stops it and is raised."""

class PtxRun:
    """A Device's queued work running on its GpuSession, stepped like WorkloadRun."""
    def step(self, on_poll: Callable[[dict[str, Any]], Any] | None = None,
             interval_ms: int = 50) -> bool: ...
    def progress(self) -> dict[str, Any]: ...
    def interrupt(self) -> None: ...
    def finished_kernels(self) -> list[dict[str, Any]]: ...
    def result(self) -> dict[str, Any]:
        """The result dict of Simulator.run plus record_buffer_max, record_refills,
        record_dry_waits; fills the host arrays of device-to-host copies. Once."""
    def close(self) -> None:
        """Abandons the run unless its result was taken (the next run starts fresh)."""

def start_ptx(tables: PtxTables, commands: list[PtxLaunch | PtxCopy], binary_version: SupportsIndex,
              session: GpuSession, max_cycles: int | None = None, first_id: SupportsIndex = 1,
              flush_caches: bool = False, intra: dict | None = None) -> PtxRun:
    """The commands as a run on ``session``'s GPU; kernels are numbered from
    ``first_id``; ``flush_caches``: L2 emptied before each kernel; ``intra``:
    intra-kernel sampling (``IntraKernelSampling.core_options()``)."""
