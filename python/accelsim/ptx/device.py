"""A simulated GPU for PTX mode: device memory, queued launches, and the
timing run that executes them."""
from __future__ import annotations

import time

import numpy as np

from accelsim import _core
from accelsim.errors import PtxError
from accelsim.ptx._tables import tables

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

    def synchronize(self):
        """Runs the device's queued work (the whole device: the simulator
        times all streams together) and returns that run's SimResult."""
        return self.device.synchronize()

    def __repr__(self) -> str:
        return f"<accelsim.ptx.Stream {self.id} of {self.device!r}>"

_RECORD_MODES = ("lowered", "ptx", "sass")


class DeviceArray:
    """A buffer in a Device's memory with a shape and dtype (like a CuPy
    array, but data moves only through copy_to_host / copy_from_host)."""

    def __init__(self, device: "Device", ptr: int, shape: tuple, dtype):
        self.device, self.ptr, self.shape, self.dtype = device, ptr, tuple(shape), np.dtype(dtype)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def copy_to_host(self, stream=None) -> np.ndarray:
        """The array's contents, copied device-to-host on the copy engine
        (timed like any copy). ``stream=None``: synchronous, as cudaMemcpy:
        every queued command runs first and the data is returned. With a
        stream (cudaMemcpyAsync into pinned memory): the copy is queued on
        it, in order with that stream's launches, and the returned array is
        filled when the queue runs (synchronize() or any synchronous copy);
        until then it holds zeros."""
        host = np.zeros(self.shape, dtype=self.dtype)
        if self.nbytes:
            self.device._copy(self.ptr, self.nbytes, stream, to_host=host)
            if stream is None:
                self.device._flush()
        return host

    get = copy_to_host

    def copy_from_host(self, array, stream=None) -> None:
        """Host-to-device copy into this array, timed on the copy engine in
        order with the queued launches: ``stream=None`` as cudaMemcpy (after
        all queued work), else on that stream as cudaMemcpyAsync. The bytes
        land when the copy runs, so launches queued before it still see the
        old contents."""
        a = np.ascontiguousarray(array, dtype=self.dtype)
        if a.size != self.size:
            raise PtxError(f"copy of {a.size} elements into a device array of {self.size}")
        if a.nbytes:
            self.device._copy(self.ptr, a.nbytes, stream, data=a.tobytes())

    set = copy_from_host

    def __repr__(self) -> str:
        return f"<DeviceArray {self.shape} {self.dtype} at {self.ptr:#x}>"


class Device:
    """A simulated GPU: ``config`` is a config name, path or Config (as for
    Simulator); ``arch`` the SASS generation whose ISA table records use
    (70 = Volta). ``regs_per_thread`` sets occupancy: PTX registers are
    virtual, so either a fixed count (default 32) or ``"ptxas"``: each kernel's
    registers and static shared memory as ptxas allocates them (for sm_75, the
    oldest target CUDA 13 has, or the PTX's .target if newer; needs ptxas on
    PATH, $CUDA_HOME, /usr/local/cuda or the nvidia-cuda-nvcc wheel).
    ``records`` picks what the timing model sees per executed PTX
    instruction: ``"lowered"`` (the SASS sequence of configs/ptx/lowering.txt),
    ``"ptx"`` (one record per PTX instruction, timed by the config's
    ptx_latency_* / ptx_initiation_* classes as GPGPU-Sim's PTX mode;
    docs/ptx.md) or ``"sass"``: the real SASS ptxas made of that PTX line
    (needs ptxas and nvdisasm: ``pip install 'accelsim[ptx]'``; implies
    ``regs_per_thread="ptxas"`` unless a count is given;
    docs/ptx_sass_guided.md). ``record_chunk``:
    records each warp of a resident block gets per refill while it is timed
    (memory stays bounded whatever the kernel's length; cycles do not depend
    on it from ~16 up; 0 = whole blocks at launch); after each run that
    timed kernels ``stream_stats`` (also in the result's
    ``extra["stream_stats"]``) holds record_buffer_max (the most records one warp held),
    record_refills and record_dry_waits (docs/ptx.md)."""

    def __init__(self, config="QV100", *, arch: int = 70, regs_per_thread: int | str | None = None,
                 max_warp_insts: int = 1 << 24, records: str = "lowered",
                 record_chunk: int = 128):
        from accelsim.sim import Simulator

        if records not in _RECORD_MODES:
            raise PtxError(f"records must be one of {', '.join(map(repr, _RECORD_MODES))}, not {records!r}")
        self.records = records
        if records == "sass":
            from accelsim.ptx.sass_guided import require_tools

            require_tools()
        if regs_per_thread is None:
            regs_per_thread = "ptxas" if records == "sass" else 32
        if regs_per_thread == "ptxas":
            from accelsim.ptx.ptxas import find_ptxas

            if find_ptxas() is None:
                raise PtxError("regs_per_thread='ptxas' needs ptxas: pip install 'accelsim[ptx]' (the nvidia-cuda-nvcc "
                               "wheel) or put a CUDA toolkit's bin folder on PATH / $CUDA_HOME")
            self._ptxas = True
            regs_per_thread = 32  # for kernels ptxas does not report
        else:
            self._ptxas = False
        if not isinstance(regs_per_thread, (int, np.integer)) or not 1 <= regs_per_thread <= 255:
            raise PtxError(f"regs_per_thread must be 1..255 or 'ptxas', not {regs_per_thread!r}")
        self.sim = Simulator(config)
        units = self.sim._values.get("opcode_units") if isinstance(self.sim._values, dict) else None
        self._tables = tables(tuple(sorted((units or {}).items())))
        self.config_name = self.sim.config_name
        self.arch = int(arch)
        self.regs_per_thread = int(regs_per_thread)
        self.max_warp_insts = int(max_warp_insts)
        if isinstance(record_chunk, bool) or not isinstance(record_chunk, (int, np.integer)) \
                or not 0 <= record_chunk < 1 << 31:
            raise PtxError(f"record_chunk must be an integer >= 0 (0: whole blocks), not {record_chunk!r}")
        self.record_chunk = int(record_chunk)
        self.stream_stats: dict = {}
        self._mem = _core.DeviceMemory()
        self._pending: list[dict] = []
        self._results: list = []
        self._globals: dict[int, list[int]] = {}
        self._next_stream = 0
        self._gpu: _core.GpuSession | None = None  # one GPU for the device's life, built on first run
        self._kernels_run = 0
        self.sm_count = int(self.sim._values.get("sm_count", 80)) if isinstance(self.sim._values, dict) else 80

    # --- memory ---
    def empty(self, shape, dtype=np.float32) -> DeviceArray:
        shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
        dt = np.dtype(dtype)
        n = int(np.prod(shape, dtype=np.int64)) * dt.itemsize
        return DeviceArray(self, self._mem.allocate(n), shape, dt)

    def zeros(self, shape, dtype=np.float32) -> DeviceArray:
        a = self.empty(shape, dtype)
        if a.nbytes:
            self._mem.fill(a.ptr, 0, a.nbytes)
        return a

    def to_device(self, array, stream=None) -> DeviceArray:
        """A new device array holding ``array``: a host-to-device copy timed
        on the copy engine (synchronous, or on ``stream``)."""
        a = np.ascontiguousarray(array)
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

    def _copy(self, address: int, nbytes: int, stream, *, to_host=None, data=None) -> None:
        """Queues a copy for the copy engine (cudaMemcpy when ``stream`` is
        None, else cudaMemcpyAsync on it). ``to_host``: a device-to-host copy
        into that array, read when the copy starts in the run; ``data``:
        host-to-device bytes, written then; neither: the bytes are in place."""
        d = {"address": int(address), "copy_bytes": int(nbytes), "stream": self._stream_id(stream),
             "memory": self._mem, "to_host": to_host is not None}
        if to_host is not None:
            d["host"] = to_host
        if data is not None:
            d["data"] = data
        self._pending.append(d)

    def texture_object(self, array: DeviceArray) -> np.uint64:
        """A cudaTextureObject_t over a 1-D device array of float32, int32 or
        uint32 (linear memory, point sampling, border 0), for tex1Dfetch."""
        if not isinstance(array, DeviceArray) or array.device is not self:
            raise PtxError("texture_object needs a DeviceArray of this device")
        kinds = {np.dtype(np.float32): "f", np.dtype(np.int32): "i", np.dtype(np.uint32): "u"}
        if array.dtype not in kinds:
            raise PtxError(f"texture objects support float32, int32 and uint32 elements, not {array.dtype}")
        return np.uint64(self._mem.add_texture(array.ptr, array.size, 4, kinds[array.dtype]))

    # --- launches ---
    def _module_globals(self, module) -> list[int]:
        key = id(module._core)
        if key not in self._globals:
            addrs = []
            for g in module._core.globals():
                ptr = self._mem.allocate(g["size"])
                if g["size"]:
                    self._mem.fill(ptr, 0, g["size"])
                if g["init"]:
                    self._mem.write(ptr, np.frombuffer(g["init"], dtype=np.uint8))
                addrs.append(ptr)
            self._globals[key] = addrs
        return self._globals[key]

    def _launch(self, kernel, grid, block, params: bytes, stream, shared: int) -> None:
        stream = self._stream_id(stream) or 0
        regs = self.regs_per_thread
        extra: dict = {}
        resources = None
        if self.records == "sass":
            from accelsim.ptx.sass_guided import sass_map

            smap = sass_map(kernel.module.text, self.arch, kernel.module.name)
            extra["sass"] = smap.lines.get(kernel.name, {})
            extra["sass_source"] = f"SASS (sm_{smap.arch}) of {kernel.module.name}"
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
        if self._ptxas and resources is not None:
            regs = resources.registers
            extra["static_shared"] = resources.shared_bytes
            extra["ptxas"] = resources
        self._pending.append({
            **extra,
            "regs": int(regs),
            "module": kernel.module._core, "kernel": kernel.name, "grid": grid, "block": block,
            "shared_mem": shared, "params": params, "globals": self._module_globals(kernel.module),
            "memory": self._mem, "stream": stream, "sm_count": self.sm_count,
            "max_warp_insts": self.max_warp_insts, "_module": kernel.module, "records": self.records,
            "chunk_records": self.record_chunk,
        })

    def _flush(self):
        if not self._pending:
            return None
        from accelsim.sim import SimResult

        launches, self._pending = self._pending, []
        start = time.perf_counter()
        if self._gpu is None:
            self._gpu = _core.GpuSession(self.sim._core)
        raw = _core.run_ptx(self.sim._core, self._tables, launches, self.arch, self.regs_per_thread,
                            session=self._gpu, first_id=self._kernels_run + 1)
        self._kernels_run += sum(1 for d in launches if "copy_bytes" not in d)
        wall = time.perf_counter() - start
        stream_stats = {k: raw[k] for k in ("record_buffer_max", "record_refills", "record_dry_waits")}
        if any("copy_bytes" not in d for d in launches):  # a copy-only run (copy_to_host) streams no records
            self.stream_stats = stream_stats
        res = SimResult(columns=raw["kernels"], total_cycles=raw["total_cycles"], completed=raw["completed"],
                        config_name=self.config_name, workload="ptx", sm_count=raw["sm_count"],
                        core_period_ps=raw["core_period_ps"], wall_time_s=wall, _stats=raw["stats"])
        res.extra["launches"] = [{k: v for k, v in d.items() if k not in ("memory", "module", "_module", "sass")}
                                 for d in launches if "copy_bytes" not in d]
        res.extra["copies"] = list(raw.get("copies", []))
        res.extra["stream_stats"] = stream_stats
        self._results.append(res)
        return res

    def synchronize(self):
        """Runs every queued launch and copy on the timing model and returns
        that run's SimResult (None if nothing ever ran; the last result when
        nothing was queued since). A Device is one GPU: each run goes on
        where the previous one stopped (clock, L1/L2 contents, DRAM state),
        so data a previous run left in L2 is hit. A result covers its own run:
        ``total_cycles`` is the cycles it took, its kernels and copies carry
        times on the device's clock, its counters count only that run.
        Synchronous copies (copy_to_host(), and copies queued before them)
        run when they are called; every result stays in ``results``."""
        if self._pending:
            self._flush()
        return self._results[-1] if self._results else None

    @property
    def cycles(self) -> int:
        """The device's clock: core cycles simulated over all its runs."""
        return int(self._gpu.now) if self._gpu is not None else 0

    @property
    def results(self) -> list:
        return list(self._results)

    def save_trace(self, folder):
        """Emulates the queued launches (device memory changes as if they
        ran) and writes them as an Accel-Sim trace folder instead of timing
        them; returns the kernelslist.g path, which Simulator.run replays."""
        from accelsim.ptx.save import write_launches

        launches, self._pending = self._pending, []
        return write_launches(folder, launches, self.arch, self.regs_per_thread)

    def __repr__(self) -> str:
        mode = "" if self.records == "lowered" else f" records={self.records!r}"
        return f"<accelsim.Device {self.config_name} sm_{self.arch}{mode}>"

