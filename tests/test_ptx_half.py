"""f16 / bf16 / f16x2 arithmetic and cvt in the PTX emulator, bit for bit
against references computed exactly (NumPy float16 rounds correctly from
float64; bf16 is rounded here from the exact float64 value)."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from accelsim import PtxError
from accelsim.ptx import Device, Module

HERE = Path(__file__).parent / "ptx_half"
SLOTS = 16


def _bf16_value(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def _to_bf16(x: float) -> int:
    """float64 -> bf16 bits, round to nearest even (the exact value given)."""
    if math.isnan(x):
        return 0x7FFF
    if math.isinf(x) or x == 0:
        return int(np.array([x], np.float32).view(np.uint32)[0] >> 16)
    m, e = math.frexp(abs(x))              # |x| = m * 2^e, 0.5 <= m < 1
    e = max(e, -125)                       # subnormal spacing below 2^-126
    q = math.ldexp(1.0, e - 8)
    v = round(abs(x) / q) * q              # Python's round: ties to even
    if v >= math.ldexp(2 - 2 ** -7, 127) + math.ldexp(1.0, 127 - 8):
        v = math.inf
    f = np.array([math.copysign(v, x)], np.float32)
    return int(f.view(np.uint32)[0] >> 16)


def _f16_bits(x) -> int:
    h = np.array([x], np.float64).astype(np.float16)
    return 0x7FFF if np.isnan(h[0]) else int(h.view(np.uint16)[0])


def _rz_f16(x: float) -> int:
    if math.isnan(x):
        return 0x7FFF
    h = np.float16(x)
    if np.isfinite(h) and abs(float(h)) > abs(x):
        h = np.nextafter(h, np.float16(0))
    if np.isinf(h) and np.isfinite(x):
        h = np.float16(math.copysign(65504.0, x))
    return int(np.array([h]).view(np.uint16)[0])


def _reference(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    out = np.zeros((len(a), SLOTS), np.uint16)
    fa, fb, fc = (v.view(np.float16).astype(np.float64) for v in (a, b, c))
    ba, bb, bc = _bf16_value(a), _bf16_value(b), _bf16_value(c)
    for i in range(len(a)):
        x, y, z = fa[i], fb[i], fc[i]
        f3 = np.float32(np.float32(np.float32(x) * np.float32(y)) + np.float32(1.1))
        nan = math.isnan(x) or math.isnan(y)
        lo = _f16_bits(x + y)
        hi = _f16_bits(y + z)
        row = [
            _f16_bits(x + y), _f16_bits(x - y), _f16_bits(x * y), _f16_bits(x * y + z),
            0x7FFF if nan and math.isnan(x) and math.isnan(y) else
            int(b[i]) if math.isnan(x) else int(a[i]) if math.isnan(y) else
            int(a[i]) if (x < y or (x == y and a[i] >> 15)) else int(b[i]),
            0x7FFF if nan and math.isnan(x) and math.isnan(y) else
            int(b[i]) if math.isnan(x) else int(a[i]) if math.isnan(y) else
            int(a[i]) if (x > y or (x == y and not a[i] >> 15)) else int(b[i]),
            int(a[i]) ^ 0x8000,
            _f16_bits(float(f3)), _rz_f16(float(f3)),
            int(x < y),
            0 if math.isnan(x) else int(np.int16(max(-32768, min(32767, math.trunc(x))))) & 0xFFFF
            if math.isfinite(x) else (0x7FFF if x > 0 else 0x8000),
            _to_bf16(ba[i] + bb[i]), _to_bf16(ba[i] * bb[i]), _to_bf16(ba[i] * bb[i] + bc[i]),
            _to_bf16(float(f3)),
            _f16_bits(float(np.array([lo], np.uint16).view(np.float16)[0]) +
                      float(np.array([hi], np.uint16).view(np.float16)[0])),
        ]
        out[i] = row
    return out


def _run(a, b, c):
    dev = Device("QV100")
    k = Module(HERE / "half.ptx").get_function("half_ops")
    n = len(a)
    out = dev.zeros(n * SLOTS, np.uint16)
    k[(n + 127) // 128, 128](dev.to_device(a), dev.to_device(b), dev.to_device(c), out, np.int32(n))
    return out.copy_to_host().reshape(n, SLOTS), dev.synchronize()


def _inputs():
    rng = np.random.default_rng(7)
    n = 512
    vals = [rng.uniform(-4, 4, n).astype(np.float16).view(np.uint16) for _ in range(3)]
    special = np.array([0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00,
                        0x3C00, 0xBC00, 0x3555, 0x0400, 0x7800, 0x3C01], np.uint16)
    a = np.concatenate([vals[0], np.repeat(special, len(special))])
    b = np.concatenate([vals[1], np.tile(special, len(special))])
    c = np.concatenate([vals[2], np.tile(special[::-1], len(special))])
    return a, b, c


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the references' inf - inf
def test_half_arithmetic_and_conversions_are_bit_exact():
    a, b, c = _inputs()
    got, res = _run(a, b, c)
    want = _reference(a, b, c)
    names = ["add", "sub", "mul", "fma", "min", "max", "neg", "cvt.rn.f16.f32", "cvt.rz.f16.f32",
             "setp.lt", "cvt.rzi.s16.f16", "add.bf16", "mul.bf16", "fma.bf16", "cvt.rn.bf16.f32", "f16x2"]
    for j, name in enumerate(names):
        bad = np.nonzero(got[:, j] != want[:, j])[0]
        assert not len(bad), (f"{name}: {len(bad)} mismatches, first a={a[bad[0]]:#06x} b={b[bad[0]]:#06x} "
                              f"c={c[bad[0]]:#06x}: got {got[bad[0], j]:#06x}, want {want[bad[0], j]:#06x}")
    # recorded through the lowering rows: the paired-half pipe
    assert res.warp_instructions > 0


def test_half_rows_of_the_lowering_table_are_used():
    from accelsim.ptx._tables import tables  # noqa: F401 (loads configs/ptx/lowering.txt)

    text = (Path(__file__).parents[1] / "configs" / "ptx" / "lowering.txt").read_text()
    for key in ("add.f16", "fma.f16x2", "mul.bf16", "cvt.f32.f16", "setp.f16"):
        assert any(line.split()[:1] == [key] for line in text.splitlines()), key


def test_unsupported_half_forms_say_so():
    ptx = (HERE / "half.ptx").read_text().replace("setp.lt.f16 %p2, %h1, %h2;",
                                                  "setp.lt.f16x2 %p2|%p3, %r6, %r7;")
    with pytest.raises(PtxError, match="f16/bf16 instruction is not supported"):
        dev = Device("QV100")
        a = dev.zeros(1, np.uint16)
        Module(ptx, name="half_bad.ptx").get_function("half_ops")[1, 1](a, a, a, a, np.int32(1))
        dev.synchronize()
