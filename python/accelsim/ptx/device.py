"""A simulated GPU for PTX mode: device memory, queued launches, and the
timing run that executes them."""
from __future__ import annotations

import time

import numpy as np

from accelsim import _core
from accelsim.errors import PtxError
from accelsim.ptx._tables import tables

__all__ = ["Device", "DeviceArray"]


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

    def copy_to_host(self) -> np.ndarray:
        """The array's contents (runs every queued launch first, as a
        synchronous cudaMemcpy does)."""
        self.device._flush()
        raw = self.device._mem.read(self.ptr, self.nbytes)
        return np.frombuffer(raw, dtype=self.dtype).reshape(self.shape).copy()

    get = copy_to_host

    def copy_from_host(self, array) -> None:
        a = np.ascontiguousarray(array, dtype=self.dtype)
        if a.size != self.size:
            raise PtxError(f"copy of {a.size} elements into a device array of {self.size}")
        self.device._flush()
        self.device._mem.write(self.ptr, a.reshape(-1))
        self.device._copied(self.ptr, a.nbytes)

    def __repr__(self) -> str:
        return f"<DeviceArray {self.shape} {self.dtype} at {self.ptr:#x}>"


class Device:
    """A simulated GPU: ``config`` is a config name, path or Config (as for
    Simulator); ``arch`` the SASS generation whose ISA table records use
    (70 = Volta). ``regs_per_thread`` sets occupancy: PTX registers are
    virtual, so either a fixed count (default 32) or ``"ptxas"``: each kernel's
    count as ptxas allocates it (for sm_75, the oldest target CUDA 13 has;
    needs ptxas on PATH, $CUDA_HOME or /usr/local/cuda). ``record_chunk``:
    records each warp of a resident block gets per refill while it is timed
    (memory stays bounded whatever the kernel's length; cycles do not depend
    on it from ~16 up; 0 = whole blocks at launch); after each run
    ``stream_stats`` holds record_buffer_max (the most records one warp held),
    record_refills and record_dry_waits (docs/ptx.md)."""

    def __init__(self, config="QV100", *, arch: int = 70, regs_per_thread: int | str = 32,
                 max_warp_insts: int = 1 << 24, record_chunk: int = 128):
        from accelsim.sim import Simulator

        if regs_per_thread == "ptxas":
            from accelsim.ptx.ptxas import find_ptxas

            if find_ptxas() is None:
                raise PtxError("regs_per_thread='ptxas' needs ptxas (CUDA toolkit or the nvidia-cuda-nvcc wheel)")
            self._ptxas = True
            regs_per_thread = 32  # for kernels ptxas does not report
        else:
            self._ptxas = False
        if not isinstance(regs_per_thread, (int, np.integer)) or not 1 <= regs_per_thread <= 255:
            raise PtxError(f"regs_per_thread must be 1..255 or 'ptxas', not {regs_per_thread!r}")
        self.sim = Simulator(config)
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

    def to_device(self, array) -> DeviceArray:
        a = np.ascontiguousarray(array)
        d = self.empty(a.shape, a.dtype)
        if a.nbytes:
            self._mem.write(d.ptr, a.reshape(-1))
            self._copied(d.ptr, a.nbytes)
        return d

    def _copied(self, address: int, nbytes: int) -> None:
        """A host-to-device copy: its data is in place now; the next run times
        it on the copy engine, in order with the launches (cudaMemcpy)."""
        self._pending.append({"address": int(address), "copy_bytes": int(nbytes)})

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

    def _launch(self, kernel, grid, block, params: bytes, stream: int, shared: int) -> None:
        regs = self.regs_per_thread
        if self._ptxas:
            from accelsim.ptx.ptxas import register_counts

            regs = (register_counts(kernel.module.text) or {}).get(kernel.name, regs)
        self._pending.append({
            "regs": int(regs),
            "module": kernel.module._core, "kernel": kernel.name, "grid": grid, "block": block,
            "shared_mem": shared, "params": params, "globals": self._module_globals(kernel.module),
            "memory": self._mem, "stream": stream, "sm_count": self.sm_count,
            "max_warp_insts": self.max_warp_insts, "chunk_records": self.record_chunk,
            "_module": kernel.module,
        })

    def _flush(self):
        if not self._pending:
            return None
        from accelsim.sim import SimResult

        launches, self._pending = self._pending, []
        start = time.perf_counter()
        raw = _core.run_ptx(self.sim._core, tables(), launches, self.arch, self.regs_per_thread)
        wall = time.perf_counter() - start
        self.stream_stats = {"record_buffer_max": raw["record_buffer_max"], "record_refills": raw["record_refills"],
                             "record_dry_waits": raw["record_dry_waits"]}
        res = SimResult(columns=raw["kernels"], total_cycles=raw["total_cycles"], completed=raw["completed"],
                        config_name=self.config_name, workload="ptx", sm_count=raw["sm_count"],
                        core_period_ps=raw["core_period_ps"], wall_time_s=wall, _stats=raw["stats"])
        res.extra["launches"] = [{k: v for k, v in d.items() if k not in ("memory", "module", "_module")}
                                 for d in launches if "copy_bytes" not in d]
        self._results.append(res)
        return res

    def synchronize(self):
        """Runs every queued launch on the timing model (a fresh GPU per run,
        like Simulator.run) and returns that run's SimResult. A copy_to_host
        with launches queued runs them first; such a run's result is returned
        by the next synchronize() when nothing was queued since. Every result
        stays in ``results``; None if nothing ever ran."""
        if self._pending:
            self._flush()
        return self._results[-1] if self._results else None

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
        return f"<accelsim.Device {self.config_name} sm_{self.arch}>"

