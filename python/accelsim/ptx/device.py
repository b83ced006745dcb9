"""A simulated GPU for PTX mode: device memory, queued launches, and the
timing run that executes them."""
from __future__ import annotations

import time
import warnings
from pathlib import Path
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from accelsim import _args, _core
from accelsim.errors import AccelsimWarning, DeviceMemoryError, DeviceTypeError, Interrupted, PtxError, RunStopped
from accelsim.ptx._tables import tables
from accelsim.run_modes import intra_only
from accelsim.ptx.cuda_lines import relocate
from accelsim.ptx.device_array import DeviceArray, checked_dtype, checked_shape, host_data
from accelsim.ptx.textures import texture_args

__all__ = ["Device", "DeviceArray", "Stream"]


class Stream:
    """A stream of one Device (like cudaStream_t / cupy.cuda.Stream): pass
    it as ``stream=`` to launches and copies. Commands of one stream run in
    order; those of different streams overlap in the timing run, copies
    with kernels included. ``int(stream)`` is its id."""

    def __init__(self, device: "Device", sid: int):
        self.device, self.id = device, int(sid)

    def __int__(self) -> int:
        return self.id

    def __enter__(self) -> "Stream":
        """``with stream:`` makes it the current stream (CuPy's convention):
        launches and copies given no ``stream=`` go on it (a copy_to_host
        then waits for the run, as CuPy's get() synchronizes the stream)."""
        self.device._stream_stack.append(self.id)
        return self

    def __exit__(self, *exc) -> None:
        self.device._stream_stack.pop()

    def synchronize(self, **run_settings):
        """Runs the device's queued work (the whole device: the simulator
        times all streams together) and returns that run's SimResult;
        ``max_cycles``, ``progress``, ``on_progress`` as Device.synchronize."""
        return self.device.synchronize(**run_settings)

    def __repr__(self) -> str:
        return f"<accelsim.ptx.Stream {self.id} of {self.device!r}>"

# What each `records` choice hands the core ("sass": the lowered records,
# replaced line by line by the SASS guide the launch carries).
_RECORD_MODES = {"lowered": _core.RecordMode.lowered, "ptx": _core.RecordMode.ptx,
                 "sass": _core.RecordMode.lowered}


class _Queued(NamedTuple):
    """A queued command (a _core.PtxLaunch or _core.PtxCopy) and, for a
    launch, what the Python side keeps of it: the Module (errors name its
    CUDA line) and ptxas's resources when they set the launch's occupancy."""
    command: Any
    module: Any = None
    ptxas: Any = None
# SASS-guided records of a GPU from Volta on are resolved in the GPU's own ISA
# table (the SASS nvdisasm gives, sm_75 or newer, is of the same family: its
# uniform-datapath opcodes fall back to their vector twins); an older GPU's
# table lacks that family's opcodes (BMOV, LOP3 on Kepler), so its records
# are resolved in the table of the SASS's generation
_VOLTA_FAMILY = 70


def _register_source(regs_per_thread) -> tuple[bool, int]:
    """(registers from ptxas?, the count for kernels ptxas does not report).
    None: ptxas's where it is installed, else 32 with a warning (occupancy
    then follows no compiler: a 52-register kernel gets twice its blocks)."""
    from accelsim.ptx.ptxas import find_ptxas

    if regs_per_thread is None:
        if find_ptxas() is not None:
            return True, 32
        warnings.warn("no ptxas found: PTX mode assumes 32 registers per thread, so occupancy may differ from the "
                      "compiled kernel's (pip install 'accelsim[ptx]', or pass regs_per_thread)", AccelsimWarning,
                      stacklevel=3)
        return False, 32
    if regs_per_thread == "ptxas":
        if find_ptxas() is None:
            raise PtxError("regs_per_thread='ptxas' needs ptxas: pip install 'accelsim[ptx]' (the nvidia-cuda-nvcc "
                           "wheel) or put a CUDA toolkit's bin folder on PATH / $CUDA_HOME")
        return True, 32
    if isinstance(regs_per_thread, bool) or not isinstance(regs_per_thread, (int, np.integer)) \
            or not 1 <= regs_per_thread <= 255:
        raise PtxError(f"regs_per_thread must be 1..255 or 'ptxas', not {regs_per_thread!r}")
    return False, int(regs_per_thread)


class Device:
    """A simulated GPU: ``config`` is a config name, path or Config (as for
    Simulator); ``arch`` the SASS generation whose ISA table records use
    (70 = Volta; default: the config's ``sm_version``). ``regs_per_thread``
    sets occupancy: PTX registers are virtual, so either a fixed count or
    ``"ptxas"`` (the default wherever ptxas is installed): each kernel's
    registers and static shared memory as ptxas allocates them (for the GPU's
    generation where an installed ptxas still targets it, else sm_75, the
    oldest target CUDA 13 has, or the PTX's .target if newer; ptxas is found
    on PATH, $CUDA_HOME, /usr/local/cuda or in the nvidia-cuda-nvcc wheel).
    Without ptxas the default is 32 registers, with a warning.
    ``records`` picks what the timing model sees per executed PTX
    instruction: ``"lowered"`` (the SASS sequence of configs/ptx/lowering.txt),
    ``"ptx"`` (one record per PTX instruction, timed by the config's
    ptx_latency_* / ptx_initiation_* classes as GPGPU-Sim's PTX mode;
    docs/ptx.md) or ``"sass"``: the real SASS ptxas made of that PTX line
    (needs ptxas and nvdisasm: ``pip install 'accelsim[ptx]'``; see
    docs/ptx.md, "SASS-guided PTX mode"); on a Volta GPU its SASS is
    Turing's unless ``volta_sass`` (Volta's own, from CUDA 12's ptxas: the
    ``nvidia-cuda-nvcc-cu12`` wheel; Turing's where that is absent or refuses
    the module). ``record_chunk``:
    records each warp of a resident block gets per refill while it is timed
    (memory stays bounded whatever the kernel's length; cycles do not depend
    on it from ~16 up; 0 = whole blocks at launch); after each run that
    timed kernels ``stream_stats`` (also in the result's
    ``extra["stream_stats"]``) holds record_buffer_max (the most records one warp held),
    record_refills and record_dry_waits (docs/ptx.md).

    Every run (``synchronize()``, and a synchronous copy, which runs the queue
    first) follows the trace runs' contract (docs/run_control.md):
    ``max_cycles`` is each run's cycle budget (None: none), ``on_progress``
    and ``progress`` (the bar) as for ``Simulator.run``; ``synchronize`` may
    override all three for one run. Ctrl-C raises ``accelsim.Interrupted``
    with the partial result. ``max_warp_insts`` bounds the warp instructions
    one warp may execute (an endless loop is a PtxError saying why it loops).
    ``memory_bytes`` is the device memory (default: the config's
    ``dram_capacity``); allocating beyond it raises
    ``accelsim.DeviceMemoryError``, as cudaMalloc fails. Pages are allocated
    on first touch, so a large array costs host memory only where written.
    ``flush_caches``: every kernel starts with an empty L2, as Nsight Compute
    measures kernels by default (its cache control "all"; L1 starts every
    kernel empty anyway), so kernel cycles compare with its numbers; the
    flush itself takes no simulated time.
    ``sample=accelsim.IntraKernelSampling(...)``: a kernel of many CTA waves
    is timed until its waves are steady, its remaining CTAs then run
    functionally only and its cycles are projected (status ``sampled``,
    ``cycles_bound``, ``simulated_ctas``; docs/sampling.md, "PTX mode"):
    device memory ends as after a full run."""

    def __init__(self, config="QV100", *, arch: int | None = None, regs_per_thread: int | str | None = None,
                 max_warp_insts: int = 1 << 24, records: str = "lowered",
                 record_chunk: int = 128, max_cycles: int | None = None, progress: bool | None = None,
                 on_progress=None, memory_bytes: int | None = None, flush_caches: bool = False,
                 volta_sass: bool = False, sample=None):
        from accelsim.sim import Simulator

        if records not in _RECORD_MODES:
            raise PtxError(f"records must be one of {', '.join(map(repr, _RECORD_MODES))}, not {records!r}")
        self.records = records
        self.volta_sass = bool(volta_sass)
        if records == "sass":
            from accelsim.ptx.sass_guided import require_tools

            require_tools()
        self._ptxas, regs_per_thread = _register_source(regs_per_thread)
        self.sim = Simulator(config)
        self._tables = tables(tuple(sorted(self.sim.opcode_units.items())))
        self.config_name = self.sim.config_name
        default_arch = int(self.sim.param("sm_version")) or 70
        self.arch = _args.bounded_int("arch", default_arch if arch is None else arch, 10, 1000)
        self.regs_per_thread = int(regs_per_thread)
        self.max_warp_insts = _args.bounded_int("max_warp_insts", max_warp_insts, 1, _args.MAX_CYCLES)
        self.max_cycles = _args.max_cycles(max_cycles)
        self.progress, self.on_progress = progress, _callable_or_none("on_progress", on_progress)
        self.memory_bytes = _args.bounded_int("memory_bytes", memory_bytes, 1, 1 << 46) \
            if memory_bytes is not None else int(self.sim.param("dram_capacity"))
        self._limits = {k: int(self.sim.param(k)) for k in ("max_threads_per_sm", "shmem_per_cta")}
        if isinstance(record_chunk, bool) or not isinstance(record_chunk, (int, np.integer)) \
                or not 0 <= record_chunk < 1 << 31:
            raise PtxError(f"record_chunk must be an integer >= 0 (0: whole blocks), not {record_chunk!r}")
        self.record_chunk = int(record_chunk)
        if not isinstance(flush_caches, (bool, np.bool_)):
            raise PtxError(f"flush_caches must be True or False, not {flush_caches!r}")
        self.flush_caches = bool(flush_caches)
        self.sample = intra_only(sample, "Device(sample=...)")
        self.stream_stats: dict = {}
        self._mem = _core.DeviceMemory()
        self._pending: list[_Queued] = []
        self._results: list = []
        self._window = 0  # results[_window:] are the runs since the last synchronize()
        self._window_ended = False  # a run stopped early: the next run opens a new window
        # id(module core) -> (that core, its variables' addresses): holding the core keeps the id unique
        self._globals: dict[int, tuple[object, list[int]]] = {}
        self._next_stream = 0
        self._stream_stack: list[int] = []  # open ``with stream:`` blocks, innermost last
        self._gpu: _core.GpuSession | None = None  # one GPU for the device's life, built on first run
        self._kernels_run = 0
        self.sm_count = self.sim.sm_count

    # --- memory ---
    def _allocate(self, nbytes: int) -> int:
        """A device address for ``nbytes`` (cudaMalloc), within memory_bytes."""
        in_use = int(self._mem.bytes_allocated)
        span = (max(nbytes, 1) + 255) // 256 * 256  # cudaMalloc's 256-byte alignment
        if in_use + span > self.memory_bytes:
            raise DeviceMemoryError(
                f"out of device memory: allocating {nbytes:,} bytes with {in_use:,} of {self.memory_bytes:,} "
                f"in use on {self.config_name} (cudaErrorMemoryAllocation; Device(memory_bytes=...) sets the "
                f"size)", requested=nbytes, in_use=in_use, capacity=self.memory_bytes)
        return int(self._mem.allocate(nbytes))

    def empty(self, shape, dtype=np.float32) -> DeviceArray:
        """A new device array (cudaMalloc). Its pages are made on first
        touch, so it costs host memory only where written; it reads as zeros."""
        dims, dt = checked_shape(shape), checked_dtype(dtype)
        n = int(np.prod(dims, dtype=object)) * dt.itemsize
        return DeviceArray(self, self._allocate(n), dims, dt)

    def malloc(self, nbytes: int) -> DeviceArray:
        """``nbytes`` of device memory (cudaMalloc) as a 1-D uint8 array;
        ``reshape`` or a kernel's own pointer type gives it meaning."""
        if isinstance(nbytes, bool) or not isinstance(nbytes, (int, np.integer)) or nbytes < 0:
            raise PtxError(f"malloc takes a byte count (an int >= 0), not {nbytes!r}")
        return DeviceArray(self, self._allocate(int(nbytes)), (int(nbytes),), np.uint8)

    def zeros(self, shape, dtype=np.float32) -> DeviceArray:
        """A new device array of zeros (fresh device memory reads as zeros)."""
        return self.empty(shape, dtype)

    def to_device(self, array, stream=None) -> DeviceArray:
        """A new device array holding ``array`` (numbers only: strings and
        objects raise DeviceTypeError): a host-to-device copy timed on the
        copy engine (synchronous, or on ``stream``)."""
        if isinstance(array, DeviceArray):
            raise DeviceTypeError("to_device takes host data; this is a DeviceArray already")
        a = host_data(array, None, "to_device")
        d = self.empty(a.shape, a.dtype)
        if a.nbytes:
            self._mem.write(d.ptr, a.reshape(-1))  # a new buffer: nothing can read it earlier
            self._copy(d.ptr, a.nbytes, stream)
        return d

    def stream(self) -> Stream:
        """A new stream (ids 1, 2, ...; stream 0 is the default)."""
        self._next_stream += 1
        return Stream(self, self._next_stream)

    def _stream_id(self, stream) -> int | None:
        if stream is None:
            return None
        if isinstance(stream, Stream):
            if stream.device is not self:
                raise PtxError(f"{stream!r} belongs to another device")
            return stream.id
        if isinstance(stream, (int, np.integer)) and not isinstance(stream, bool) and 0 <= stream < 1 << 63:
            return int(stream)
        raise PtxError(f"stream must be a Stream of this device or a non-negative int, not {stream!r}")

    def _copy(self, address: int, nbytes: int, stream, *, to_host=None, data=None, fill=None) -> None:
        """Queues a copy for the copy engine (cudaMemcpy when ``stream`` is
        None and no ``with stream:`` is open, else cudaMemcpyAsync on it).
        ``to_host``: a device-to-host copy into that array, read when the
        copy starts in the run; ``data``: host-to-device bytes, written then;
        ``fill``: bytes set then, untimed (cudaMemset); none: the bytes are
        in place."""
        sid = self._stream_id(stream) if stream is not None else self._current_stream()
        self._pending.append(_Queued(_core.PtxCopy(
            address=int(address), bytes=int(nbytes), to_host=to_host is not None, stream=sid,
            memory=self._mem, data=data, host=to_host, fill=fill)))

    def _current_stream(self) -> int | None:
        """The stream of the innermost open ``with stream:`` (None: none)."""
        return self._stream_stack[-1] if self._stream_stack else None

    def texture_object(self, array: DeviceArray, *, channels: int = 1, layered: bool = False,
                       linear: bool | None = None, address_mode: str | Sequence[str] = "clamp",
                       filter: str = "point", normalized_coords: bool = False, read_mode: str = "element",
                       border_color: Sequence[float] = (0, 0, 0, 0)) -> np.uint64:
        """A cudaTextureObject_t over a DeviceArray, for tex / tld4. A 1-D
        array is linear memory (tex1Dfetch: integer coordinates, outside
        reads 0) unless ``linear=False``; otherwise the array is a CUDA array
        of 1 to 3 dimensions (last axis x; ``channels`` of 2 or 4 take one
        more last axis; ``layered`` makes the first axis the layers).
        Channels are float32, float16 or 8/16/32-bit integers;
        ``read_mode="normalized"`` reads 8/16-bit integers as floats in
        [0, 1] ([-1, 1] signed). ``address_mode`` ("wrap", "clamp",
        "mirror", "border"; one, or one per dimension), ``filter`` ("point",
        "linear"), ``normalized_coords`` and ``border_color`` are
        cudaTextureDesc's."""
        if not isinstance(array, DeviceArray) or array.device is not self:
            raise PtxError("texture_object needs a DeviceArray of this device")
        args = texture_args(array, channels=channels, layered=layered, linear=linear, address_mode=address_mode,
                            filter=filter, normalized_coords=normalized_coords, read_mode=read_mode,
                            border_color=border_color, surface=False)
        return np.uint64(self._mem.add_texture_object(args))

    def surface_object(self, array: DeviceArray, *, channels: int = 1, layered: bool = False) -> np.uint64:
        """A cudaSurfaceObject_t over a DeviceArray taken as a CUDA array of
        1 to 3 dimensions (as ``texture_object``'s: last axis x,
        ``channels`` of 2 or 4 one more last axis, ``layered`` the first
        axis the layers), for suld / sust: x is in bytes, y and z in rows and
        slices."""
        if not isinstance(array, DeviceArray) or array.device is not self:
            raise PtxError("surface_object needs a DeviceArray of this device")
        args = texture_args(array, channels=channels, layered=layered, linear=False, address_mode="clamp",
                            filter="point", normalized_coords=False, read_mode="element",
                            border_color=(0, 0, 0, 0), surface=True)
        return np.uint64(self._mem.add_texture_object(args))

    # --- launches ---
    def _module_globals(self, module) -> list[int]:
        """Device addresses of the module's .global/.const variables, placed
        (and initialised) on the module's first launch on this device."""
        key = id(module._core)
        if key not in self._globals:
            addrs = []
            for g in module._core.globals():
                ptr = self._allocate(g["size"])  # fresh memory reads as zeros
                if g["init"]:
                    self._mem.write(ptr, np.frombuffer(g["init"], dtype=np.uint8))
                addrs.append(ptr)
            self._globals[key] = (module._core, addrs)
        return self._globals[key][1]

    def _launch(self, kernel, grid, block, params: bytes, stream, shared: int) -> None:
        stream = (self._stream_id(stream) if stream is not None else self._current_stream()) or 0
        regs = self.regs_per_thread
        extra: dict = {}
        resources = None
        if self.records == "sass":
            from accelsim.ptx.sass_guided import sass_map

            smap = sass_map(kernel.module.text, self.arch, kernel.module.name, own_volta=self.volta_sass)
            extra["sass"] = smap.lines.get(kernel.name, {})
            extra["sass_loops"] = smap.loop_specs(kernel.name)
            extra["sass_source"] = f"SASS (sm_{smap.arch}) of {kernel.module.name}"
            if self.arch < _VOLTA_FAMILY:  # another ISA family: resolved in the SASS's own table
                extra["binary_version"] = smap.arch
            resources = smap.resources.get(kernel.name)
        elif self._ptxas:
            from accelsim.ptx.ptxas import kernel_resources
            from accelsim.ptx.sass_guided import ptx_target

            # the GPU's own arch where some ptxas still targets it (sm_70: the
            # CUDA 12 wheel, for PTX whose .target allows it), else sm_75
            target = ptx_target(kernel.module.text)
            res = (kernel_resources(kernel.module.text, f"sm_{max(self.arch, target)}")
                   or kernel_resources(kernel.module.text, f"sm_{max(75, self.arch, target)}") or {})
            resources = res.get(kernel.name)
        if not (self._ptxas and resources is not None):
            resources = None
        else:
            regs = resources.registers
            extra["static_shared"] = resources.shared_bytes
        self._check_fits(kernel, block, int(extra.get("static_shared", kernel.info["shared_bytes"])), shared)
        launch = _core.PtxLaunch(
            module=kernel.module._core, kernel=kernel.name, grid=grid, block=block, memory=self._mem,
            params=params, globals=self._module_globals(kernel.module), stream=stream, dyn_shared=shared,
            regs_per_thread=int(regs), records=_RECORD_MODES[self.records], sm_count=self.sm_count,
            max_warp_insts=self.max_warp_insts, chunk_records=self.record_chunk, **extra)
        self._pending.append(_Queued(launch, kernel.module, resources))

    def _check_fits(self, kernel, block, static_shared: int, dynamic_shared: int) -> None:
        """A launch the GPU of the config cannot run at all is refused here,
        as cudaLaunchKernel refuses it, not when the queue runs."""
        threads = block[0] * block[1] * block[2]
        most = self._limits.get("max_threads_per_sm")
        if most is not None and threads > most:
            raise PtxError(f"kernel {kernel.name}: a block of {threads} threads, more than an SM of "
                           f"{self.config_name} holds ({most}; max_threads_per_sm)", path=kernel.module.name,
                           line=kernel.info.get("line"))
        limit = self._limits.get("shmem_per_cta")
        if limit is not None and static_shared + dynamic_shared > limit:
            raise PtxError(f"kernel {kernel.name}: {static_shared:,} bytes of static and {dynamic_shared:,} of "
                           f"dynamic shared memory, more than a block may use on {self.config_name} "
                           f"({limit:,}; shmem_per_cta)", path=kernel.module.name, line=kernel.info.get("line"))

    _DEFAULT = object()  # "as the Device was made" for synchronize's run settings

    def _run_settings(self, max_cycles, progress, on_progress) -> tuple:
        d = Device._DEFAULT
        return (self.max_cycles if max_cycles is d else _args.max_cycles(max_cycles),
                self.progress if progress is d else progress,
                self.on_progress if on_progress is d else _callable_or_none("on_progress", on_progress))

    def _flush(self, max_cycles=_DEFAULT, progress=_DEFAULT, on_progress=_DEFAULT):
        """Runs the queue (one run on the device's GPU) and returns its
        SimResult; Ctrl-C raises Interrupted with the partial result. The
        queue is consumed either way: work a stopped run did not reach is
        dropped (its kernels are listed as not_reached)."""
        if not self._pending:
            return None
        from accelsim.run_loop import drive

        budget, bar, callback = self._run_settings(max_cycles, progress, on_progress)
        launches, self._pending = self._pending, []
        start = time.perf_counter()
        if self._gpu is None:
            self._gpu = self.sim.session()
        if self._window_ended:
            self._open_window()
        resets = self._gpu.resets
        first_id = self._kernels_run + 1
        self._kernels_run += sum(1 for q in launches if q.module is not None)
        run, taken = None, False
        try:
            run = _core.start_ptx(self._tables, [q.command for q in launches], self.arch, self._gpu,
                                  max_cycles=budget, first_id=first_id, flush_caches=self.flush_caches,
                                  intra=self.sample.core_options() if self.sample is not None else None)
            res = drive(run, lambda: self._result(run.result(), launches, start), on_progress=callback,
                        progress=bar, label="PTX run")
            taken = True
        except Interrupted as stop:
            taken = True
            self._results.append(stop.result)
            self._window_ended = True
            raise
        except PtxError as e:  # a module from CUDA: name the .cu line
            raise relocate(e, [q.module for q in launches if q.module is not None]) from None
        finally:
            if run is not None:
                run.close()  # an exception from a callback: the device is free for the next run
            if not taken and self._gpu.resets != resets:  # a failed run: its GPU is gone, and with
                self._window = len(self._results)  # it the counters of the window's runs
        self._results.append(res)
        self._window_ended = not res.completed
        return res

    def _open_window(self) -> None:
        """The runs from here on are the next synchronize()'s."""
        self._window, self._window_ended = len(self._results), False
        if self._gpu is not None:
            self._gpu.mark()

    def _result(self, raw: dict, launches: list[_Queued], start: float):
        from accelsim.sim import SimResult

        stream_stats = {k: raw[k] for k in ("record_buffer_max", "record_refills", "record_dry_waits")}
        if any(q.module is not None for q in launches):  # a copy-only run (copy_to_host) streams no records
            self.stream_stats = stream_stats
        res = SimResult(columns=raw["kernels"], total_cycles=raw["total_cycles"], completed=raw["completed"],
                        config_name=self.config_name, workload="ptx", sm_count=raw["sm_count"],
                        core_period_ps=raw["core_period_ps"], wall_time_s=time.perf_counter() - start,
                        _stats=raw["stats"], interrupted=raw.get("interrupted", False))
        res.extra["launches"] = [_launch_row(q) for q in launches if q.module is not None]
        res.extra["copies"] = copies = [dict(c) for c in raw.get("copies", [])]
        fills = [q.command.is_fill for q in launches if q.module is None]
        if len(fills) == len(copies):  # the copies in command order: name the fills as the CUDA runtime does
            for c, fill in zip(copies, fills):
                if fill:
                    c["direction"] = "Memset"
        res.extra["stream_stats"] = stream_stats
        return res

    def _run_sync(self, what: str) -> None:
        """Runs the queue for a synchronous copy; its data exists only if the
        run got to it."""
        res = self._flush()
        if res is not None and not res.completed:
            why = "on_progress asked it to stop" if res.interrupted else \
                f"it reached its cycle budget (max_cycles={self.max_cycles:,})"
            raise RunStopped(f"{what}: the run stopped before the copy ran ({why}); no data was copied. "
                             f"The partial result is in Device.results[-1]", result=res)

    def synchronize(self, max_cycles=_DEFAULT, progress=_DEFAULT, on_progress=_DEFAULT):
        """Runs every queued launch and copy on the timing model and returns
        one SimResult of everything since the previous ``synchronize()``:
        every kernel and copy of every stream, including those a synchronous
        copy (``copy_to_host()``) ran in between (None if nothing ever ran;
        a result with no kernels and 0 cycles when nothing ran since).
        A Device is one GPU: each run goes on where the previous one stopped
        (clock, L1/L2 contents, DRAM state), so data a previous run left in
        L2 is hit. The result covers its window alone: ``total_cycles`` is
        the cycles its runs took, its kernels and copies carry times on the
        device's clock, its counters count only those runs (``extra["runs"]``
        lists the runs when there were several). Each run's own result
        stays in ``results``.

        ``max_cycles``, ``progress`` and ``on_progress`` override the
        Device's for this run (as for ``Simulator.run``): a run that reaches
        its budget or whose ``on_progress`` returns True ends with
        ``completed`` False and each kernel's ``status`` (``simulated``,
        ``cut_off``, ``not_reached``); Ctrl-C raises ``accelsim.Interrupted``
        carrying that partial result. Either way the queue is consumed and
        the next run starts on a fresh GPU. A run that stopped early or
        failed ends the window: a synchronize() that raises closes it, and
        after a copy_to_host() that raised the next synchronize() returns the
        runs up to the stopped one (a failed run takes the counters of the
        runs before it with its GPU: those stay in ``results`` only)."""
        from accelsim.ptx.sync_window import window_result

        try:
            if self._pending:
                self._flush(max_cycles, progress, on_progress)
        except BaseException:
            self._open_window()
            raise
        if not self._results:
            return None
        runs = self._results[self._window:]
        stats = self._gpu.stats_since_mark() if len(runs) != 1 and self._gpu is not None else None
        res = window_result(runs, stats, self._results[-1])
        self._open_window()
        return res

    @property
    def cycles(self) -> int:
        """The device's clock: core cycles simulated over all its runs."""
        return int(self._gpu.now) if self._gpu is not None else 0

    @property
    def results(self) -> list:
        return list(self._results)

    def save_trace(self, folder, progress=_DEFAULT, on_progress=_DEFAULT):
        """Emulates the queued launches (device memory changes as if they
        ran) and writes them as an Accel-Sim trace folder instead of timing
        them; returns the kernelslist.g path, which Simulator.run replays.
        ``folder`` is made if missing (an existing file there is an error).
        ``progress`` / ``on_progress`` as for synchronize (no cycles pass:
        progress counts records). Ctrl-C stops it within a fraction of a
        second with ``accelsim.Interrupted`` (on_progress returning True:
        ``accelsim.RunStopped``), whose ``result`` is the kernelslist.g of
        the kernels written whole so far."""
        from accelsim.ptx.save import write_launches

        folder = Path(_args.path_text("folder", folder))
        if folder.exists() and not folder.is_dir():
            raise PtxError(f"save_trace: {folder} exists and is not a folder", path=str(folder))
        _, bar, callback = self._run_settings(None, progress, on_progress)
        launches, self._pending = self._pending, []
        try:
            return write_launches(folder, [q.command for q in launches], self.arch, progress=bar,
                                  on_progress=callback)
        except PtxError as e:
            raise relocate(e, [q.module for q in launches if q.module is not None]) from None

    def __repr__(self) -> str:
        mode = "" if self.records == "lowered" else f" records={self.records!r}"
        return f"<accelsim.Device {self.config_name} sm_{self.arch}{mode}>"


def _launch_row(q: _Queued) -> dict:
    """A launch as the result lists it (``extra["launches"]``)."""
    c = q.command
    row = {"kernel": c.kernel, "grid": c.grid, "block": c.block, "shared_mem": c.dyn_shared, "params": c.params,
           "globals": list(c.globals), "stream": c.stream, "regs": c.regs_per_thread,
           "records": c.records.name if c.sass_source is None else "sass", "sm_count": c.sm_count,
           "max_warp_insts": c.max_warp_insts, "chunk_records": c.chunk_records}
    if c.static_shared >= 0:
        row["static_shared"] = c.static_shared
    if c.sass_source is not None:
        row["sass_source"] = c.sass_source
    if c.binary_version:
        row["binary_version"] = c.binary_version
    if q.ptxas is not None:
        row["ptxas"] = q.ptxas
    return row


def _callable_or_none(name: str, f):
    if f is not None and not callable(f):
        raise PtxError(f"{name} must be a callable or None, not {type(f).__name__}")
    return f
