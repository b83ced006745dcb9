"""Device arrays of a PTX-mode Device, and what host data they accept.

Data moves only through ``copy_to_host`` / ``copy_from_host`` (CuPy's
``get`` / ``set``), and only data that survives the trip: as in CuPy, an
implicit conversion to NumPy (``np.asarray(device_array)``) is a TypeError
(``accelsim.DeviceTypeError``), and so are strings, Python objects and host
arrays whose values the device dtype cannot hold (float64 beyond float32's
range, integers that would wrap, fractions into integers).
"""
from __future__ import annotations

import operator

import numpy as np

from accelsim.errors import DeviceTypeError, PtxError

__all__ = ["DeviceArray", "checked_dtype", "checked_shape", "host_data"]

# dtype kinds a device array holds: bool, integers, floats, complex
_KINDS = "biufc"


def checked_dtype(dtype) -> np.dtype:
    """``dtype`` as a NumPy dtype of numbers (what a kernel can read)."""
    try:
        dt = np.dtype(dtype)
    except TypeError as e:
        raise DeviceTypeError(f"not a NumPy dtype: {dtype!r} ({e})") from None
    if dt.kind not in _KINDS or dt.fields is not None:
        raise DeviceTypeError(f"device arrays hold numbers (bool, int, uint, float, complex), not {dt} "
                              f"({_kind_name(dt)})")
    return dt


def checked_shape(shape) -> tuple[int, ...]:
    """``shape`` (an int or a sequence of ints) as a tuple of non-negative ints."""
    dims = []
    for d in shape if isinstance(shape, (tuple, list)) else (shape,):
        try:
            if isinstance(d, bool):
                raise TypeError
            dims.append(operator.index(d))
        except TypeError:
            raise PtxError(f"shape must be a non-negative int or a tuple of them, got {shape!r}") from None
    if any(d < 0 for d in dims):
        raise PtxError(f"negative dimensions are not allowed: shape {shape!r}")
    return tuple(dims)


def _kind_name(dt: np.dtype) -> str:
    return {"U": "text", "S": "bytes", "O": "Python objects", "V": "records", "M": "dates",
            "m": "time deltas"}.get(dt.kind, dt.kind)


def host_data(array, dtype: np.dtype | None, what: str) -> np.ndarray:
    """``array`` as a C-contiguous array of ``dtype`` (None: its own) that
    holds exactly the values given: a NumPy array of another dtype only where
    NumPy casts it safely (int32 -> int64, float32 -> float64); Python numbers
    and lists whenever each value survives the conversion."""
    given = array
    try:
        a = np.asarray(array)
    except (ValueError, TypeError) as e:  # ragged lists and the like
        raise DeviceTypeError(f"{what}: cannot read {type(given).__name__} as an array ({e})") from None
    if a.dtype.kind not in _KINDS or a.dtype.fields is not None:
        raise DeviceTypeError(f"{what}: device arrays hold numbers, not {_kind_name(a.dtype)} ({a.dtype})")
    if dtype is None:
        dtype = a.dtype
    if a.dtype == dtype or np.can_cast(a.dtype, dtype, casting="safe"):
        return np.ascontiguousarray(a, dtype=dtype)
    if isinstance(given, np.ndarray):  # CuPy's set(): another dtype is a TypeError
        raise DeviceTypeError(f"{what}: a {a.dtype} array does not fit a {dtype} device array without losing "
                              f"values; convert it first (array.astype(np.{dtype.name}))")
    with np.errstate(all="ignore"):
        out = np.ascontiguousarray(a.astype(dtype))
        back = out.astype(a.dtype)
    same = (back == a) | (np.isnan(a) & np.isnan(back)) if a.dtype.kind in "fc" else back == a
    if not np.all(same):
        k = int(np.argmin(np.asarray(same).reshape(-1)))
        raise DeviceTypeError(f"{what}: the value {a.reshape(-1)[k].item()!r} does not fit {dtype} (it would "
                              f"become {out.reshape(-1)[k].item()!r})")
    return out


class DeviceArray:
    """A buffer in a Device's memory with a shape and dtype (like a CuPy
    array, but data moves only through copy_to_host / copy_from_host /
    fill). ``a[i]``, ``a[i:j]`` and ``a.reshape(...)`` are views of the same
    memory (C order, contiguous); ``len(a)`` is the first dimension."""

    def __init__(self, device, ptr: int, shape: tuple, dtype):
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
        every queued command runs first (under the Device's run settings:
        ``max_cycles``, ``progress``, ``on_progress``) and the data is
        returned; a run that stops before the copy raises
        ``accelsim.RunStopped`` (budget, on_progress) or
        ``accelsim.Interrupted`` (Ctrl-C). With a stream (cudaMemcpyAsync into
        pinned memory): the copy is queued on it, in order with that stream's
        launches, and the returned array is filled when the queue runs
        (synchronize() or any synchronous copy); until then it holds zeros."""
        host = np.zeros(self.shape, dtype=self.dtype)
        if self.nbytes:
            self.device._copy(self.ptr, self.nbytes, stream, to_host=host)
            if stream is None:
                self.device._run_sync("copy_to_host")
        return host

    get = copy_to_host

    def copy_from_host(self, array, stream=None) -> None:
        """Host-to-device copy into this array, timed on the copy engine in
        order with the queued launches: ``stream=None`` as cudaMemcpy (after
        all queued work), else on that stream as cudaMemcpyAsync. The bytes
        land when the copy runs, so launches queued before it still see the
        old contents. ``array`` must hold numbers that fit this array's dtype
        (a NumPy array of another dtype only if it casts safely): anything
        else raises ``accelsim.DeviceTypeError``."""
        a = host_data(array, self.dtype, f"copy_from_host (device array of {self.dtype})")
        if a.size != self.size:
            raise PtxError(f"copy of {a.size} elements into a device array of {self.size}")
        if a.nbytes:
            self.device._copy(self.ptr, a.nbytes, stream, data=a.tobytes())

    set = copy_from_host

    def fill(self, value, stream=None) -> None:
        """Sets every element to ``value`` (CuPy's ``fill``; a value the
        dtype cannot hold raises DeviceTypeError). Like the CUDA runtime's
        cudaMemset it runs in order with the queued work (on ``stream``, or
        after everything queued when None) and takes no simulated time."""
        one = host_data(value, self.dtype, f"fill (device array of {self.dtype})")
        if one.size != 1:
            raise DeviceTypeError(f"fill takes one value, not {one.size}")
        self._set(np.full(self.size, one.reshape(-1)[0], dtype=self.dtype).tobytes(), stream)

    def memset(self, value: int, stream=None) -> None:
        """Sets every byte to ``value`` (0..255), as cudaMemset."""
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value <= 255:
            raise PtxError(f"memset takes a byte value 0..255, not {value!r}")
        self._set(bytes([int(value)]) * self.nbytes, stream)

    def _set(self, data: bytes, stream) -> None:
        if data:
            self.device._copy(self.ptr, 0, stream, fill=data)

    # --- views (CuPy/NumPy conventions; a view shares the device memory) ---
    def reshape(self, *shape) -> "DeviceArray":
        """A view of the same elements with another shape (one dimension may
        be -1: inferred)."""
        dims = list(shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape)
        unknown = [i for i, d in enumerate(dims) if not isinstance(d, bool) and isinstance(d, (int, np.integer))
                   and d == -1]
        if len(unknown) > 1:
            raise PtxError(f"reshape: only one dimension may be -1, got {tuple(dims)}")
        if unknown:
            rest = int(np.prod(checked_shape([d for i, d in enumerate(dims) if i != unknown[0]]), dtype=np.int64))
            if rest == 0 or self.size % rest:
                raise PtxError(f"reshape: cannot reshape an array of {self.size} elements into {tuple(dims)}")
            dims[unknown[0]] = self.size // rest
        new = checked_shape(dims)
        if int(np.prod(new, dtype=np.int64)) != self.size:
            raise PtxError(f"reshape: cannot reshape an array of {self.size} elements into shape {new}")
        return DeviceArray(self.device, self.ptr, new, self.dtype)

    def view(self, dtype) -> "DeviceArray":
        """The same bytes read as ``dtype`` (the last dimension rescaled, as
        NumPy's view): e.g. ``device.malloc(64).view(np.float32)``."""
        dt = checked_dtype(dtype)
        last = self.shape[-1] * self.dtype.itemsize if self.shape else self.dtype.itemsize
        if last % dt.itemsize:
            raise PtxError(f"view: the last dimension holds {last} bytes, not a whole number of {dt} elements")
        return DeviceArray(self.device, self.ptr, self.shape[:-1] + (last // dt.itemsize,), dt)

    def __getitem__(self, key) -> "DeviceArray":
        """A view: an integer picks one entry of the first axis, a slice
        with step 1 a range of it (contiguous memory; a strided view cannot
        be passed to a kernel as a pointer)."""
        if not self.shape:
            raise PtxError("a 0-d DeviceArray cannot be indexed")
        row = int(np.prod(self.shape[1:], dtype=np.int64)) * self.dtype.itemsize
        n = self.shape[0]
        if isinstance(key, slice):
            start, stop, step = key.indices(n)
            if step != 1:
                raise PtxError(f"DeviceArray views are contiguous: slice step {key.step} is not supported "
                               f"(copy_to_host() and slice the NumPy array)")
            return DeviceArray(self.device, self.ptr + start * row, (max(stop - start, 0),) + self.shape[1:],
                               self.dtype)
        if isinstance(key, bool) or not isinstance(key, (int, np.integer)):
            raise PtxError(f"DeviceArray indices are an int or a slice of the first axis, not {key!r} "
                           f"(use reshape for other views)")
        i = int(key) + n if key < 0 else int(key)
        if not 0 <= i < n:
            raise PtxError(f"index {int(key)} is out of bounds for axis 0 with size {n}")
        return DeviceArray(self.device, self.ptr + i * row, self.shape[1:], self.dtype)

    def __array__(self, dtype=None, copy=None):
        raise DeviceTypeError("implicit conversion of a DeviceArray to a NumPy array is not allowed (its data "
                              "lives on the simulated device); use .copy_to_host() (or .get()) explicitly")

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d DeviceArray")
        return self.shape[0]

    def __repr__(self) -> str:
        return f"<DeviceArray {self.shape} {self.dtype} at {self.ptr:#x}>"
