"""Texture and surface objects over a Device's arrays: what
``Device.texture_object`` / ``Device.surface_object`` give the runtime's
texture table, checked here so a bad argument is an error naming it."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from accelsim.errors import PtxError

# dtype -> (channel kind, bits): float16 channels are halves, as cudaChannelFormatKindFloat of 16 bits
_CHANNELS = {np.dtype(np.float32): ("f", 32), np.dtype(np.float16): ("f", 16),
             np.dtype(np.int8): ("i", 8), np.dtype(np.int16): ("i", 16), np.dtype(np.int32): ("i", 32),
             np.dtype(np.uint8): ("u", 8), np.dtype(np.uint16): ("u", 16), np.dtype(np.uint32): ("u", 32)}
_MODES = {"wrap": 0, "clamp": 1, "mirror": 2, "border": 3}  # cudaTextureAddressMode
_FILTERS = {"point": 0, "linear": 1}
_READS = ("element", "normalized")


def _address_modes(address_mode: str | Sequence[str]) -> list[str]:
    modes = [address_mode] * 3 if isinstance(address_mode, str) else list(address_mode)
    if not 1 <= len(modes) <= 3 or any(m not in _MODES for m in modes):
        raise PtxError(f"address_mode must be one of {sorted(_MODES)} or up to three of them (x, y, z), "
                       f"not {address_mode!r}")
    return modes + [modes[-1]] * (3 - len(modes))


def _extent(shape: tuple, channels: int, layered: bool, linear: bool) -> tuple[int, int, int]:
    """(width, height, depth) of a texture over an array of `shape`: the
    last axes are x (then y, z); `channels` > 1 takes the last axis; a
    layered texture's first axis counts layers (its depth)."""
    if channels not in (1, 2, 4):
        raise PtxError(f"channels must be 1, 2 or 4 (as CUDA's channel formats), not {channels}")
    dims = list(shape)
    if channels > 1:
        if not dims or dims[-1] != channels:
            raise PtxError(f"an array of {channels} channels has them as its last axis; its shape is {shape}")
        dims.pop()
    spatial = len(dims) - (1 if layered else 0)
    if linear and (spatial != 1 or layered):
        raise PtxError(f"a linear texture is 1-D; this array has shape {shape}")
    if not 1 <= spatial <= (2 if layered else 3):
        raise PtxError(f"a {'layered ' if layered else ''}texture over an array of shape {shape} "
                       f"has {spatial} dimensions (1 to {2 if layered else 3})")
    width = dims[-1]
    height = dims[-2] if spatial >= 2 else 0
    depth = dims[0] if layered or spatial == 3 else 0
    return width, height, depth


def texture_args(array, *, channels: int, layered: bool, linear: bool | None, address_mode, filter: str,
                 normalized_coords: bool, read_mode: str, border_color, surface: bool) -> dict:
    """The keyword arguments of DeviceMemory.add_texture_object for `array`."""
    if array.dtype not in _CHANNELS:
        raise PtxError(f"texture channels are float32, float16 or 8/16/32-bit integers, not {array.dtype}")
    kind, bits = _CHANNELS[array.dtype]
    if linear is None:
        linear = len(array.shape) == 1 and not layered and not surface
    width, height, depth = _extent(array.shape, channels, layered, linear)
    if filter not in _FILTERS:
        raise PtxError(f"filter must be 'point' or 'linear', not {filter!r}")
    if read_mode not in _READS:
        raise PtxError(f"read_mode must be 'element' or 'normalized', not {read_mode!r}")
    if read_mode == "normalized" and (kind == "f" or bits == 32):
        raise PtxError("read_mode='normalized' reads 8- and 16-bit integer channels as floats; "
                       f"these are {array.dtype}")
    border = [float(b) for b in border_color]
    if len(border) != 4:
        raise PtxError(f"border_color has 4 components, not {len(border)}")
    return dict(ptr=array.ptr, shape="linear" if linear else "array", width=width, height=height, depth=depth,
                channels=channels, channel_bits=bits, kind=kind, address_mode=[_MODES[m] for m in
                                                                                 _address_modes(address_mode)],
                filter=_FILTERS[filter], normalized_coords=bool(normalized_coords),
                normalized_read=read_mode == "normalized", layered=bool(layered), border=border, surface=surface)
