"""bfind (nvcc emits it for __ffs and for 31 - __clz) at every type, plain and
.shiftamt, against a NumPy reference, and its record for the timing model."""
from __future__ import annotations

import numpy as np
import pytest

from accelsim.ptx import Device, Module
from ptx_record_util import first_warp_opcodes

HEAD = ".version 8.0\n.target sm_75\n.address_size 64\n"


def _kernel(form: str, wide: bool) -> str:
    ty, size, reg = ("b64", 8, "%rd9") if wide else ("b32", 4, "%r9")
    ld = "u64" if wide else "u32"
    return HEAD + f"""
.visible .entry k(.param .u64 p_x, .param .u64 p_out)
{{
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [p_x];
  ld.param.u64 %rd2, [p_out];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, {size};
  add.s64 %rd4, %rd1, %rd3;
  ld.global.{ld} {reg}, [%rd4];
  {form} %r10, {reg};
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %r10;
  ret;
}}
"""


def _reference(x: np.ndarray, signed: bool, shiftamt: bool) -> np.ndarray:
    bits = x.dtype.itemsize * 8
    out = []
    for v in x.tolist():
        if signed and v < 0:
            v = ~v
        v &= (1 << bits) - 1
        pos = v.bit_length() - 1
        out.append(0xFFFFFFFF if v == 0 else (bits - 1 - pos if shiftamt else pos))
    return np.array(out, dtype=np.uint32)


def _inputs(dtype) -> np.ndarray:
    info = np.iinfo(dtype)
    rng = np.random.default_rng(7)
    special = [0, 1, 2, 3, -1, -2, info.min, info.max, info.min + 1, 1 << 5, (1 << 5) - 1]
    special = [v for v in special if info.min <= v <= info.max]
    rand = rng.integers(info.min, info.max, 256 - len(special), dtype=dtype, endpoint=True)
    return np.concatenate([np.array(special, dtype=dtype), rand >> rng.integers(0, info.bits, rand.size).astype(dtype)])


@pytest.mark.parametrize("ty", ["u32", "s32", "u64", "s64"])
@pytest.mark.parametrize("shiftamt", [False, True])
def test_bfind_matches_numpy(ty, shiftamt):
    dtype = {"u32": np.uint32, "s32": np.int32, "u64": np.uint64, "s64": np.int64}[ty]
    x = _inputs(dtype)
    form = "bfind" + (".shiftamt" if shiftamt else "") + "." + ty
    dev = Device("QV100")
    xd, out = dev.to_device(x), dev.zeros(x.size, np.uint32)
    Module(_kernel(form, ty.endswith("64"))).get_function("k")[1, x.size](xd, out)
    assert dev.synchronize().completed
    np.testing.assert_array_equal(out.copy_to_host(), _reference(x, ty[0] == "s", shiftamt))


def test_bfind_is_recorded_as_flo():
    dev = Device("QV100")
    x = dev.to_device(np.arange(32, dtype=np.uint32))
    out = dev.zeros(32, np.uint32)
    Module(_kernel("bfind.shiftamt.u32", False)).get_function("k")[1, 32](x, out)
    assert first_warp_opcodes(dev).count("FLO") == 1
