"""PTX modules and their kernels: parsing, argument packing, launch syntax."""
from __future__ import annotations

import re
import struct
from pathlib import Path

import numpy as np

from accelsim import _core
from accelsim.errors import PtxError
from accelsim.ptx._tables import tables
from accelsim.ptx.cuda_lines import CudaLines, ptx_name_for, relocate

__all__ = ["Kernel", "Module"]

# PTX parameter type -> (NumPy kinds accepted, Python types accepted)
_INT_KINDS = {"u": ("u", "i"), "s": ("i", "u"), "b": ("u", "i")}


def _looks_like_path(src: str) -> bool:
    """One line that is no PTX (PTX has directives and braces) names a file."""
    return "\n" not in src and not any(w in src for w in (".entry", ".version", ".func", "{", ";"))


class Module:
    """A parsed PTX module. ``src`` is PTX text or a path to a .ptx file;
    ``name`` labels it in error messages (default: the path or "<string>")."""

    def __init__(self, src, name: str | None = None, *, _cuda_source: str | None = None):
        if isinstance(src, Path) or (isinstance(src, str) and _looks_like_path(src)):
            path = Path(src)
            if not path.exists():
                raise PtxError(f"PTX file {str(path)!r} does not exist (Module takes PTX text or the path of "
                               f"a .ptx file)", path=str(path))
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError as e:
                raise PtxError(f"cannot read PTX file {path}: {e.strerror}", path=str(path)) from None
            name = name or str(path)
        elif isinstance(src, (str, bytes)):
            text = src.decode("utf-8", "replace") if isinstance(src, bytes) else src
            name = name or "<string>"
        else:
            raise PtxError(f"Module expects PTX text or a path, not {type(src).__name__}")
        self.name = name
        self.text = text
        # from_cuda: errors name the CUDA line (cuda_lines.py); the PTX is parsed as "<PTX of name>"
        self.cuda_lines = CudaLines(text, _cuda_source) if _cuda_source else None
        try:
            self._core = _core.PtxModule.parse(text, ptx_name_for(name) if _cuda_source else name, tables())
        except PtxError as e:
            raise relocate(e, [self]) from None
        self._kernels = {k["name"]: k for k in self._core.kernels()}

    @classmethod
    def from_cuda(cls, source, name: str = "kernel.cu", arch: str | None = None,
                  options: list[str] | None = None) -> "Module":
        """Compile CUDA C++ (str, or UTF-8 bytes) to PTX (NVRTC if installed,
        else ``nvcc -ptx``), with line info: errors then name the .cu line.
        ``arch``: a target such as "sm_75" (default: the oldest CUDA 13 has)."""
        from accelsim.ptx.compile import cuda_to_ptx

        if isinstance(source, (bytes, bytearray)):
            try:
                source = bytes(source).decode("utf-8")
            except UnicodeDecodeError as e:
                raise PtxError(f"CUDA source given as bytes is not UTF-8 text ({e.reason} at byte {e.start})",
                               path=name) from None
        if not isinstance(source, str):
            raise PtxError(f"from_cuda expects CUDA C++ source text (str or bytes), not {type(source).__name__}",
                           path=name)
        return cls(cuda_to_ptx(source, name=name, arch=arch, options=options), name=name, _cuda_source=name)

    @property
    def kernel_names(self) -> list[str]:
        return list(self._kernels)

    def get_function(self, name: str) -> "Kernel":
        if name not in self._kernels:
            # accept the unmangled name when exactly one mangled kernel carries it
            hits = [k for k in self._kernels if k.startswith("_Z") and f"{len(name)}{name}" in k]
            if len(hits) != 1:
                raise PtxError(f"no kernel {name!r} in {self.name} (kernels: {', '.join(self._kernels)})",
                               path=self.name)
            name = hits[0]
        return Kernel(self, self._kernels[name])

    def get_global(self, name: str, device, dtype=None):
        """The module's ``__device__`` (.global) or ``__constant__`` (.const)
        variable ``name`` on ``device``, as a DeviceArray over its memory
        (CuPy's RawModule.get_global): copy_from_host / fill write it before
        the launches queued after, copy_to_host reads it. ``dtype``: its
        element type (default: the PTX declaration's when it is a number
        type, else uint8, as nvcc declares arrays and structs as .b8)."""
        from accelsim.ptx.device import Device
        from accelsim.ptx.device_array import DeviceArray, checked_dtype

        if not isinstance(device, Device):
            raise PtxError(f"get_global({name!r}): device must be an accelsim.Device, not {type(device).__name__}")
        variables = [g["name"] for g in self._core.globals()]
        if name not in variables:
            raise PtxError(f"no __device__ or __constant__ variable {name!r} in {self.name} (variables: "
                           f"{', '.join(variables) or 'none'})", path=self.name)
        i = variables.index(name)
        size = int(self._core.globals()[i]["size"])
        dt = checked_dtype(dtype) if dtype is not None else _declared_dtype(self.text, name)
        if size % dt.itemsize:
            raise PtxError(f"get_global({name!r}): {size} bytes are not a whole number of {dt} elements",
                           path=self.name)
        return DeviceArray(device, device._module_globals(self)[i], (size // dt.itemsize,), dt)

    def bind_texture(self, name: str, device, obj) -> None:
        """Binds the module-scope texture or surface reference ``name``
        (``.global .texref`` / ``.surfref``, from toolkits before CUDA 12) on
        ``device`` to a texture or surface object (``Device.texture_object``
        / ``surface_object``), as cudaBindTextureToArray did: the launches
        queued after it read through that object."""
        self.get_global(name, device, np.uint64).copy_from_host(np.array([obj], np.uint64))

    def __repr__(self) -> str:
        return f"<accelsim.ptx.Module {self.name}: {', '.join(self._kernels)}>"


class Kernel:
    """One .entry of a module. ``kernel[grid, block](*args, stream=None,
    shared_mem=0)`` (Numba's form) or ``kernel(grid, block, args,
    stream=None, shared_mem=0)`` (CuPy's RawKernel form, ``args`` a tuple)
    queues a launch on the device the arrays live on; ``stream`` None: the
    stream of the open ``with stream:`` block, else the default stream 0."""

    def __init__(self, module: Module, info: dict):
        self.module = module
        self.name = info["name"]
        self.params = info["params"]
        self.info = info
        self._launchable = False

    def check_launchable(self) -> None:
        """Raises the PtxError a launch of this kernel would meet before it
        runs: an instruction the emulator lacks (in the kernel or a function
        it calls, named with its line; the module's other kernels still run),
        a call to a function without a body, recursion."""
        if not self._launchable:
            try:
                self.module._core.check_kernel(self.name)
            except PtxError as e:
                raise relocate(e, [self.module]) from None
            self._launchable = True

    def __getitem__(self, config):
        if not isinstance(config, tuple) or len(config) not in (2, 3, 4):
            raise PtxError(f"kernel {self.name}: launch as kernel[grid, block] (optionally "
                           "[grid, block, stream, shared_mem])")
        grid, block = _dim3(config[0], self.name, "grid"), _dim3(config[1], self.name, "block")
        stream = config[2] if len(config) > 2 else None  # None: the open ``with stream:``'s, else 0
        shared = config[3] if len(config) > 3 else 0
        return _Launcher(self, grid, block, stream, shared)

    def __call__(self, grid, block, args, *, stream=None, shared_mem=0, device=None):
        if not isinstance(args, (tuple, list)):
            raise PtxError(f"kernel {self.name}: the CuPy call form is kernel(grid, block, args) with args a "
                           f"tuple of the kernel's arguments, not {type(args).__name__}")
        self[grid, block](*args, stream=stream, shared_mem=shared_mem, device=device)

    def pack(self, args) -> tuple[bytes, object]:
        """The parameter buffer for ``args`` and the device they point to."""
        if len(args) != len(self.params):
            raise PtxError(f"kernel {self.name} takes {len(self.params)} arguments "
                           f"({', '.join(p['name'] for p in self.params)}), got {len(args)}")
        size = max([p["offset"] + p["size"] for p in self.params] or [0])
        buf = bytearray(size)
        device = None
        for p, a in zip(self.params, args):
            raw, dev = _pack_one(self.name, p, a)
            buf[p["offset"]:p["offset"] + len(raw)] = raw
            if dev is not None:
                if device is not None and dev is not device:
                    raise PtxError(f"kernel {self.name}, parameter {p['name']}: arrays of two devices")
                device = dev
        return bytes(buf), device

    def __repr__(self) -> str:
        return f"<accelsim.ptx.Kernel {self.name}({', '.join(p['name'] for p in self.params)})>"


class _Launcher:
    def __init__(self, kernel, grid, block, stream, shared):
        self.kernel, self.grid, self.block, self.stream, self.shared = kernel, grid, block, stream, shared

    def __call__(self, *args, stream=None, shared_mem=None, device=None):
        self.kernel.check_launchable()
        params, dev = self.kernel.pack(args)
        dev = device or dev
        if dev is None:
            raise PtxError(f"kernel {self.kernel.name}: no device array among the arguments; "
                           "pass device=accelsim.Device(...)")
        stream = self.stream if stream is None else stream
        shared = self.shared if shared_mem is None else shared_mem
        if not isinstance(shared, (int, np.integer)) or not 0 <= shared <= 1 << 20:
            raise PtxError(f"kernel {self.kernel.name}: shared_mem must be a byte count in [0, 1 MiB], "
                           f"got {shared!r}")
        dev._launch(self.kernel, self.grid, self.block, params, stream, int(shared))


def _declared_dtype(text: str, name: str) -> np.dtype:
    """The element type a .global/.const declaration of ``name`` gives."""
    m = re.search(r"\.(?:global|const)\b[^;{]*?\.([usfb])(8|16|32|64)\s+" + re.escape(name) + r"\b", text)
    if m is None or m.group(1) == "b":
        return np.dtype(np.uint8) if m is None or m.group(2) == "8" else np.dtype(f"u{int(m.group(2)) // 8}")
    return np.dtype({"u": "u", "s": "i", "f": "f"}[m.group(1)] + str(int(m.group(2)) // 8))


def _dim3(v, kernel: str, what: str) -> tuple[int, int, int]:
    try:
        t = (v,) if isinstance(v, (int, np.integer)) else tuple(v)
    except TypeError:
        t = ()
    if not 1 <= len(t) <= 3 or not all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) and x >= 1
                                       for x in t):
        raise PtxError(f"kernel {kernel}: {what} must be a positive int or a tuple of up to 3, got {v!r}")
    t = tuple(int(x) for x in t) + (1,) * (3 - len(t))
    # CUDA's limits for compute capability 3.0 and later (cudaErrorInvalidConfiguration beyond them)
    if what == "block" and t[0] * t[1] * t[2] > 1024:
        raise PtxError(f"kernel {kernel}: block of {t[0] * t[1] * t[2]} threads (at most 1024)")
    limits = (1024, 1024, 64) if what == "block" else (2**31 - 1, 65535, 65535)
    for axis, n, most in zip("xyz", t, limits):
        if n > most:
            raise PtxError(f"kernel {kernel}: {what} {t}: {what}.{axis} = {n:,} is beyond CUDA's limit of {most:,}")
    return (t[0], t[1], t[2])


def _pack_one(kernel: str, p: dict, a) -> tuple[bytes, object]:
    from accelsim.ptx.device import DeviceArray

    name, ty, size = p["name"], p["type"], p["size"]
    where = f"kernel {kernel}, parameter {name} (.{ty}"
    where += f"[{size}])" if ty == "b8" and size > 1 else ")"
    if isinstance(a, DeviceArray):
        if size != 8 or ty not in ("u64", "b64", "s64"):
            raise PtxError(f"{where}: got a device array, the parameter is not a pointer")
        return struct.pack("<Q", a.ptr), a.device
    if isinstance(a, np.ndarray) and a.ndim > 0:
        raise PtxError(f"{where}: got a host NumPy array; copy it with device.to_device() first")
    if ty == "b8" and size > 1 or isinstance(a, (bytes, bytearray, np.void)):
        raw = bytes(a) if not isinstance(a, np.void) else a.tobytes()
        if len(raw) != size:
            raise PtxError(f"{where}: by-value argument of {len(raw)} bytes, the parameter has {size}")
        return raw, None
    if ty.startswith("f"):
        if isinstance(a, np.generic):
            if a.dtype.kind != "f" or a.dtype.itemsize != size:
                raise PtxError(f"{where}: got {a.dtype}, expected float{8 * size}")
            return a.tobytes(), None
        if isinstance(a, (float, int)) and not isinstance(a, bool):
            return np.array(a, dtype=np.float32 if size == 4 else np.float64).tobytes(), None
        raise PtxError(f"{where}: got {type(a).__name__}, expected a float")
    kinds = _INT_KINDS.get(ty[0], ("u", "i"))
    if isinstance(a, np.generic):
        if a.dtype.kind not in kinds or a.dtype.itemsize != size:
            raise PtxError(f"{where}: got {a.dtype}, expected a {8 * size}-bit integer")
        return a.tobytes(), None
    if isinstance(a, (int, np.integer)) and not isinstance(a, bool):
        lo = -(1 << (8 * size - 1)) if ty[0] == "s" else -(1 << (8 * size - 1))
        hi = (1 << (8 * size)) - 1
        if not lo <= a <= hi:
            raise PtxError(f"{where}: {a} does not fit in {8 * size} bits")
        return int(a & ((1 << (8 * size)) - 1)).to_bytes(size, "little"), None
    raise PtxError(f"{where}: got {type(a).__name__}, expected an integer")
