"""The remaining tensor-core forms against NumPy: wmma at m32n8k16 and
m8n32k16 (f16 with f16 or f32 accumulators, bf16, s8 / u8), f64 mma and wmma
at m8n8k4 (exact in double), stmatrix (sm_90), the older mma shapes
(m8n8k4 with f16 multiplicands in Volta's quad-pair layout, m8n8k16 s8 / u8)
and 4-bit integers (m8n8k32, m16n8k32, m16n8k64 s4 / u4). Fragments are
placed by the PTX ISA's formulas, written out here independently of the
emulator; records are counted as nvdisasm shows ptxas 13's code for sm_80
(HMMA / IMMA / DMMA, STSM; the quad-pair form is a routine of shuffles and
f32 arithmetic); malformed forms are refused naming the modifier."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from accelsim import PtxError
from accelsim.ptx import Device, Module
from cuda_util import tensor_module
from ptx_record_util import first_warp_opcodes
from test_ptx_mma import WMMA, _strided, _vec

HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n"


# --- wmma m32n8k16 / m8n32k16 ---
def _operands(rng, ab: str, m: int, n: int, k: int, sat: bool):
    """(A, B, C as stored, A, B as values, accumulator type)."""
    if ab in ("s8", "u8"):
        lo, dt = (-128, np.int8) if ab == "s8" else (0, np.uint8)
        A, B = rng.integers(lo, lo + 256, (m, k)).astype(dt), rng.integers(lo, lo + 256, (k, n)).astype(dt)
        off = rng.integers(0, 2**17, (m, n))
        C = (np.where(rng.random((m, n)) < 0.5, 2**31 - 1 - off, -2**31 + off) if sat
             else rng.integers(-1000, 1000, (m, n))).astype(np.int32)
        return A, B, C, A.astype(np.int64), B.astype(np.int64)
    A = (rng.integers(-40, 41, (m, k)) / 8).astype(np.float32)  # exact in bf16 and f16
    B = (rng.integers(-40, 41, (k, n)) / 4).astype(np.float32)
    C = rng.integers(-100, 100, (m, n)).astype(np.float32)
    if ab == "bf16":
        bits = lambda x: (x.view(np.uint32) >> 16).astype(np.uint16)  # noqa: E731
        return bits(A), bits(B), C, A.astype(np.float64), B.astype(np.float64)
    return A.astype(np.float16), B.astype(np.float16), C, A.astype(np.float64), B.astype(np.float64)


@pytest.mark.parametrize("shape,ab,acc,la,lb,lc,ldl,sat", [
    ("m32n8k16", "f16", "f32", "row", "col", "row", "row", False),
    ("m32n8k16", "f16", "f16", "col", "row", "col", "col", False),
    ("m8n32k16", "f16", "f16", "row", "row", "row", "row", False),
    ("m8n32k16", "f16", "f32", "col", "col", "row", "col", False),
    ("m32n8k16", "bf16", "f32", "row", "col", "row", "row", False),
    ("m8n32k16", "bf16", "f32", "col", "row", "col", "row", False),
    ("m32n8k16", "s8", "s32", "row", "col", "row", "row", False),
    ("m8n32k16", "u8", "s32", "col", "row", "row", "col", True),
])
def test_wmma_m32n8k16_and_m8n32k16_match_numpy(shape, ab, acc, la, lb, lc, ldl, sat):
    m, n, k = (32, 8, 16) if shape == "m32n8k16" else (8, 32, 16)
    rng = np.random.default_rng(len(shape + ab + acc + la + lb + lc + ldl) + sat)
    A, B, C, av, bv = _operands(rng, ab, m, n, k, sat)
    if acc == "f16":
        C = C.astype(np.float16)
    per = {"f16": 16, "bf16": 16, "s8": 8, "u8": 8}[ab]
    regs_a = 8 if ab == "f16" else m * k // 32 * per // 32
    regs_b = 8 if ab == "f16" else k * n // 32 * per // 32
    regs_c = 4 if acc == "f16" else 8
    types = f"{acc}.{acc}" if ab == "f16" else f"{acc}.{ab}.{ab}.{acc}" + (".satfinite" if sat else "")
    reg = ".f32" if acc == "f32" else ".b32"
    text = WMMA.format(la=la, lb=lb, lc=lc, ldl=ldl, shape=shape, ab=ab, ct=acc, dt=acc, creg=reg, dreg=reg,
                       types=types, va=_vec("a", regs_a), vb=_vec("b", regs_b), vc=_vec("c", regs_c),
                       vd=_vec("d", regs_c))
    ld = 40  # each matrix a tile of a wider array, either layout
    dev = Device("A100")
    out = dev.zeros(32 * ld, C.dtype)
    Module(text, name="wmma.ptx").get_function("k")[1, 32](
        dev.to_device(_strided(A, la, ld)), dev.to_device(_strided(B, lb, ld)), dev.to_device(_strided(C, lc, ld)),
        out, np.uint32(ld))
    ops = first_warp_opcodes(dev, version=80)
    assert ops.count("IMMA" if acc == "s32" else "HMMA") == 2  # ptxas 13, sm_80: two 16816 for either shape
    assert dev.synchronize().completed
    got = out.copy_to_host().reshape(-1, ld)
    got = got[:m, :n] if ldl == "row" else got[:n, :m].T
    want = av @ bv + C.astype(np.float64 if acc != "s32" else np.int64)
    if acc == "f16":  # exact in f32, rounded once to f16
        want = want.astype(np.float16).astype(np.float64)
    if sat:
        assert (want != np.clip(want, -2**31, 2**31 - 1)).any()  # saturation is exercised
        want = np.clip(want, -2**31, 2**31 - 1)
    np.testing.assert_array_equal(got.astype(want.dtype), want)


@pytest.mark.parametrize("shape,la,lb", [("m32n8k16", "col", "row"), ("m8n32k16", "row", "col")])
def test_wmma_without_a_stride_reads_each_matrix_stored_whole(shape, la, lb):
    """No stride operand: a row-major matrix's rows are its column count apart, a column-major one's
    columns its row count (m32n8k16's column-major A: 32; m8n32k16's column-major B: 16)."""
    m, n, k = (32, 8, 16) if shape == "m32n8k16" else (8, 32, 16)
    rng = np.random.default_rng(7 + m)
    A, B, C, av, bv = _operands(rng, "f16", m, n, k, False)
    text = WMMA.format(la=la, lb=lb, lc="row", ldl="col", shape=shape, ab="f16", ct="f32", dt="f32", creg=".f32",
                       dreg=".f32", types="f32.f32", va=_vec("a", 8), vb=_vec("b", 8), vc=_vec("c", 8),
                       vd=_vec("d", 8)).replace(", %r1;", ";")
    stored = lambda mat, layout: np.ascontiguousarray(mat if layout == "row" else mat.T).ravel()  # noqa: E731
    dev = Device("A100")
    out = dev.zeros(m * n, np.float32)
    Module(text, name="wmma.ptx").get_function("k")[1, 32](
        dev.to_device(stored(A, la)), dev.to_device(stored(B, lb)), dev.to_device(stored(C, "row")), out,
        np.uint32(0))
    assert dev.synchronize().completed
    np.testing.assert_array_equal(out.copy_to_host().reshape(n, m).T, av @ bv + C)


# --- the PTX ISA's mma fragment formulas (g = lane >> 2, t = lane % 4) for the m8n8 shapes ---
def m8_a(per: int, lane: int) -> list[tuple[int, int]]:
    """m8n8k4 f64 (per 1), m8n8k16 s8 (per 4), m8n8k32 s4 (per 8): row g, column per t + i."""
    return [(lane >> 2, per * (lane % 4) + i) for i in range(per)]


def m8_b(per: int, lane: int) -> list[tuple[int, int]]:
    return [(per * (lane % 4) + i, lane >> 2) for i in range(per)]


def m8_c(lane: int) -> list[tuple[int, int]]:
    return [(lane >> 2, 2 * (lane % 4) + i) for i in range(2)]


def m16_a4(k: int, lane: int) -> list[tuple[int, int]]:
    """m16n8k32 / m16n8k64 s4: row g (+8 for the odd register), column 8t + i (+32 from register 2)."""
    g, t = lane >> 2, lane % 4
    return [(g + 8 * ((i // 8) % 2), 8 * t + (i % 8) + (32 if i >= 16 else 0)) for i in range(k // 2)]


def m16_b4(k: int, lane: int) -> list[tuple[int, int]]:
    g, t = lane >> 2, lane % 4
    return [(8 * t + (i % 8) + (32 if i >= 8 else 0), g) for i in range(k // 4)]


def m16_c(lane: int) -> list[tuple[int, int]]:
    g, t = lane >> 2, lane % 4
    return [(g + (8 if i >= 2 else 0), 2 * t + (i & 1)) for i in range(4)]


def words(mat: np.ndarray, coords, bits: int, n: int) -> np.ndarray:
    """Per lane, the elements at coords(lane) packed into n-word rows (the first element lowest);
    `bits` 4 packs nibbles, 64 gives each element two words."""
    out = np.zeros((32, n), np.uint32)
    for lane in range(32):
        vals = [mat[r, c] for r, c in coords(lane)]
        if bits == 64:
            out[lane, :2 * len(vals)] = np.array(vals, np.float64).view(np.uint32)
        elif bits == 4:
            for i, v in enumerate(vals):
                out[lane, i // 8] |= np.uint32((int(v) & 0xF) << (4 * (i % 8)))
        else:
            packed = np.array(vals, mat.dtype).view(np.uint32)
            out[lane, :len(packed)] = packed
    return out


def unwords(w: np.ndarray, coords, dtype, shape) -> np.ndarray:
    out = np.zeros(shape, dtype)
    for lane in range(32):
        for i, (r, c) in enumerate(coords(lane)):
            out[r, c] = w[lane].view(dtype)[i]
    return out


def mma_kernel(form: str, na: int, nb: int, nc: int, reg: str = ".b32", words_per_lane: int = 16) -> str:
    """Fragments loaded lane-major (`words_per_lane` 32-bit words a lane: A from word 0, B from 4, C from 8),
    `form` run on them, D stored at the same place. f64 fragments (reg .f64) take two words each."""
    w = 8 if reg == ".f64" else 4
    vec = lambda name, n: "{" + ", ".join(f"%{name}{i}" for i in range(n)) + "}"  # noqa: E731
    loads = "".join(f"  ld.global{reg} %{x}{i}, [%rd5+{4 * base + w * i}];\n"
                    for x, n, base in (("a", na, 0), ("b", nb, 4), ("c", nc, 8)) for i in range(n))
    stores = "".join(f"  st.global{reg} [%rd6+{4 * 8 + w * i}], %d{i};\n" for i in range(nc))
    return HEAD + f""".visible .entry k(.param .u64 pin, .param .u64 pout)
{{
  .reg {reg} %a<4>;
  .reg {reg} %b<2>;
  .reg {reg} %c<8>;
  .reg {reg} %d<8>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, {4 * words_per_lane};
  ld.param.u64 %rd1, [pin];
  add.s64 %rd5, %rd1, %rd4;
  ld.param.u64 %rd2, [pout];
  add.s64 %rd6, %rd2, %rd4;
{loads}  {form} {vec("d", nc)}, {vec("a", na)}, {vec("b", nb)}, {vec("c", nc)};
{stores}  ret;
}}
"""


def run_lanes(text: str, a: np.ndarray, b: np.ndarray, c: np.ndarray, config: str = "A100", version: int = 80):
    """Run a kernel of mma_kernel's layout: A's words at 0, B's at 4, C's at 8 of 16 a lane. (D words, opcodes)"""
    buf = np.zeros((32, 16), np.uint32)
    buf[:, :a.shape[1]], buf[:, 4:4 + b.shape[1]], buf[:, 8:8 + c.shape[1]] = a, b, c
    dev = Device(config)
    out = dev.zeros((32, 16), np.uint32)
    Module(text, name="mma.ptx").get_function("k")[1, 32](dev.to_device(buf), out)
    ops = first_warp_opcodes(dev, version=version)
    assert dev.synchronize().completed
    return out.copy_to_host()[:, 8:], ops


# --- f64 ---
def test_mma_f64_m8n8k4_is_exact_in_double():
    rng = np.random.default_rng(64)
    A = rng.integers(-2**20, 2**20, (8, 4)) * 2.0 ** -10  # products and sums exact: any order agrees
    B = rng.integers(-2**20, 2**20, (4, 8)) * 2.0 ** -12
    C = rng.integers(-2**30, 2**30, (8, 8)) * 2.0 ** -8
    text = mma_kernel("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 1, 1, 2, ".f64")
    d, ops = run_lanes(text, words(A, lambda lane: m8_a(1, lane), 64, 2), words(B, lambda lane: m8_b(1, lane), 64, 2),
                       words(C, m8_c, 64, 4))
    assert ops.count("DMMA") == 1 and "HMMA" not in ops
    got = unwords(d, m8_c, np.float64, (8, 8))
    np.testing.assert_array_equal(got, A @ B + C)
    assert not np.array_equal(got, (A.astype(np.float32) @ B.astype(np.float32) + C).astype(np.float64))


def test_mma_f64_fuses_each_step_in_k_order():
    """Random doubles: the result is C's fused multiply-add chain over k (each step rounded once)."""
    rng = np.random.default_rng(65)
    A, B, C = rng.standard_normal((8, 4)), rng.standard_normal((4, 8)), rng.standard_normal((8, 8))
    text = mma_kernel("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 1, 1, 2, ".f64")
    d, _ = run_lanes(text, words(A, lambda lane: m8_a(1, lane), 64, 2), words(B, lambda lane: m8_b(1, lane), 64, 2),
                     words(C, m8_c, 64, 4))
    got = unwords(d, m8_c, np.float64, (8, 8))
    from fractions import Fraction
    want = np.zeros((8, 8))
    for r, c in itertools.product(range(8), range(8)):
        acc = float(C[r, c])
        for k in range(4):  # fma: the exact a*b + acc, rounded once
            acc = float(Fraction(float(A[r, k])) * Fraction(float(B[k, c])) + Fraction(acc))
        want[r, c] = acc
    np.testing.assert_array_equal(got, want)


def test_f64_mma_on_a_gpu_without_dmma_names_the_missing_sass():
    """QV100 (sm_70) has no DMMA, as ptxas refuses f64 mma there."""
    text = mma_kernel("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 1, 1, 2, ".f64")
    dev = Device("QV100")
    bufs = dev.zeros((32, 16), np.uint32), dev.zeros((32, 16), np.uint32)
    Module(text, name="mma.ptx").get_function("k")[1, 32](*bufs)
    with pytest.raises(PtxError, match="DMMA"):
        dev.synchronize()


@pytest.mark.parametrize("la,lb,lc,ldl", [("row", "col", "row", "row"), ("col", "row", "col", "col")])
def test_wmma_f64_m8n8k4_matches_numpy(la, lb, lc, ldl):
    rng = np.random.default_rng(len(la + lb + lc + ldl))
    A = rng.integers(-2**20, 2**20, (8, 4)) * 2.0 ** -10
    B = rng.integers(-2**20, 2**20, (4, 8)) * 2.0 ** -12
    C = rng.integers(-2**30, 2**30, (8, 8)) * 2.0 ** -8
    text = WMMA.format(la=la, lb=lb, lc=lc, ldl=ldl, shape="m8n8k4", ab="f64", ct="f64", dt="f64", creg=".f64",
                       dreg=".f64", types="f64.f64.f64.f64.rn", va=_vec("a", 1), vb=_vec("b", 1),
                       vc=_vec("c", 2), vd=_vec("d", 2)).replace(".reg .b32 %a<8>;", ".reg .f64 %a<8>;").replace(
                           ".reg .b32 %b<8>;", ".reg .f64 %b<8>;")
    ld = 12
    dev = Device("A100")
    out = dev.zeros(8 * ld, np.float64)
    Module(text, name="wmma.ptx").get_function("k")[1, 32](
        dev.to_device(_strided(A, la, ld)), dev.to_device(_strided(B, lb, ld)), dev.to_device(_strided(C, lc, ld)),
        out, np.uint32(ld))
    assert first_warp_opcodes(dev, version=80).count("DMMA") == 1
    assert dev.synchronize().completed
    got = out.copy_to_host().reshape(-1, ld)
    got = got[:8, :8] if ldl == "row" else got[:8, :8].T
    np.testing.assert_array_equal(got, A @ B + C)


# --- 8-bit and 4-bit integers at the older shapes ---
INT4 = {"s4": (-8, 8), "u4": (0, 16)}
INT8 = {"s8": (-128, 128), "u8": (0, 256)}


@pytest.mark.parametrize("shape,at,bt,sat", [
    ("m8n8k16", "s8", "s8", False), ("m8n8k16", "u8", "s8", True), ("m8n8k16", "s8", "u8", False),
    ("m8n8k32", "s4", "s4", False), ("m8n8k32", "u4", "s4", True),
    ("m16n8k32", "s4", "u4", False), ("m16n8k32", "u4", "u4", True),
    ("m16n8k64", "s4", "s4", True), ("m16n8k64", "u4", "s4", False),
])
def test_integer_mma_sums_exactly(shape, at, bt, sat):
    m, k = int(shape[1:shape.index("n")]), int(shape[shape.index("k") + 1:])
    rng = np.random.default_rng(k + m + sat + len(at + bt))
    rng_of = {**INT4, **INT8}
    A = rng.integers(*rng_of[at], (m, k))
    B = rng.integers(*rng_of[bt], (k, 8))
    off = rng.integers(0, 2**10, (m, 8))
    C = np.where(rng.random((m, 8)) < 0.5, 2**31 - 1 - off, -2**31 + off).astype(np.int64)  # near the limits
    bits = 4 if at in INT4 else 8
    if m == 8:
        per = 32 // bits
        ca, cb, cc, na, nb, nc = (lambda lane: m8_a(per, lane)), (lambda lane: m8_b(per, lane)), m8_c, 1, 1, 2
    else:
        ca, cb, cc = (lambda lane: m16_a4(k, lane)), (lambda lane: m16_b4(k, lane)), m16_c
        na, nb, nc = k // 16, k // 32, 4
    pack = (lambda mat, coords, n: words(mat, coords, 4, n)) if bits == 4 else (
        lambda mat, coords, n: words(mat.astype(np.int8 if mat.min() < 0 else np.uint8), coords, 8, n))
    form = f"mma.sync.aligned.{shape}.row.col{'.satfinite' if sat else ''}.s32.{at}.{bt}.s32"
    d, ops = run_lanes(mma_kernel(form, na, nb, nc), pack(A, ca, 4), pack(B, cb, 4),
                       words(C.astype(np.int32), cc, 32, 4))
    assert ops.count("IMMA") == 1 and "HMMA" not in ops
    got = unwords(d, cc, np.int32, (m, 8)).astype(np.int64)
    exact = A @ B + C
    want = np.clip(exact, -2**31, 2**31 - 1) if sat else (exact + 2**31) % 2**32 - 2**31
    assert (exact != want).any()  # overflow is exercised
    np.testing.assert_array_equal(got, want)


# --- m8n8k4 with f16 multiplicands: four quad pairs' 8x8x4 products ---
def qp_a(col: bool, lane: int, q: int) -> list[tuple[int, int]]:
    """Quad pair q's A (8 x 4): row-major lane holds row t (+4 high), columns 0..3; column-major
    column t, rows 0..3 (+4 high). Rows of the stacked 32 x 4 A at 8q."""
    t, hi = lane % 4, 4 if lane >= 16 else 0
    return [(8 * q + i + hi, t) if col else (8 * q + t + hi, i) for i in range(4)]


def qp_b(col: bool, lane: int, q: int) -> list[tuple[int, int]]:
    t, hi = lane % 4, 4 if lane >= 16 else 0
    return [(i, 8 * q + t + hi) if col else (t, 8 * q + i + hi) for i in range(4)]


def qp_c(f32: bool, lane: int, q: int) -> list[tuple[int, int]]:
    t, hi = lane % 4, 4 if lane >= 16 else 0
    if not f32:
        return [(8 * q + t + hi, i) for i in range(8)]
    return [(8 * q + (t & 1) + (i & 2) + hi, (t & 2) + (i & 1) + (i & 4)) for i in range(8)]


@pytest.mark.parametrize("la,lb,dt,ct", [
    ("row", "col", "f16", "f16"), ("col", "row", "f32", "f32"), ("row", "row", "f32", "f16"),
    ("col", "col", "f16", "f32"),
])
def test_mma_m8n8k4_f16_computes_each_quad_pair_s_product(la, lb, dt, ct):
    rng = np.random.default_rng(len(la + lb + dt + ct))
    A = rng.integers(-8, 9, (32, 4)).astype(np.float16)   # quad pair q's A: rows 8q..8q+7
    B = rng.integers(-8, 9, (4, 32)).astype(np.float16)   # its B: columns 8q..8q+7
    C = rng.integers(-50, 50, (32, 8)).astype(np.float16 if ct == "f16" else np.float32)
    q_of = lambda lane: (lane >> 2) & 3  # noqa: E731
    ca = lambda lane: qp_a(la == "col", lane, q_of(lane))  # noqa: E731
    cb = lambda lane: qp_b(lb == "col", lane, q_of(lane))  # noqa: E731
    cc = lambda lane: qp_c(ct == "f32", lane, q_of(lane))  # noqa: E731
    cd = lambda lane: qp_c(dt == "f32", lane, q_of(lane))  # noqa: E731
    nc, nd = (8 if ct == "f32" else 4), (8 if dt == "f32" else 4)
    form = f"mma.sync.aligned.m8n8k4.{la}.{lb}.{dt}.f16.f16.{ct}"
    vec = lambda name, n: "{" + ", ".join(f"%{name}{i}" for i in range(n)) + "}"  # noqa: E731
    text = mma_kernel(form, 2, 2, 8).replace(f"{vec('d', 8)}, {vec('a', 2)}, {vec('b', 2)}, {vec('c', 8)}",
                                             f"{vec('d', nd)}, {vec('a', 2)}, {vec('b', 2)}, {vec('c', nc)}")
    cw = words(C, cc, 16 if ct == "f16" else 32, 8)
    d, ops = run_lanes(text, words(A, ca, 16, 2), words(B, cb, 16, 2), cw)
    # ptxas 13's routine for sm_80 (nvdisasm): 16 SHFL and 16 FFMA of 124 records for f16 C and D, else 20 and
    # 32 of 144
    both_f16 = dt == "f16" and ct == "f16"
    assert "HMMA" not in ops and ops.count("SHFL") == (16 if both_f16 else 20)
    assert ops.count("FFMA") == (16 if both_f16 else 32) and ops.count("HADD2") == (44 if both_f16 else 24)
    got = unwords(d, cd, np.float16 if dt == "f16" else np.float32, (32, 8)).astype(np.float64)
    want = np.vstack([A[8 * q:8 * q + 8].astype(np.float64) @ B[:, 8 * q:8 * q + 8] for q in range(4)]) + C
    np.testing.assert_array_equal(got, want)
    # each quad pair multiplies its own matrices: the full 32 x 32 product's off-diagonal blocks play no part
    assert not np.array_equal(got, (A.astype(np.float64) @ B)[:, :8] + C)


# --- stmatrix (sm_90) ---
STMATRIX = """.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pperm, .param .u64 pout)
{{
  .reg .b32 %r<16>;
  .reg .b64 %rd<12>;
  .shared .align 16 .b8 sm[512];
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pperm];
  ld.param.u64 %rd3, [pout];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 16;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.v4.u32 {{%r2, %r3, %r4, %r5}}, [%rd5];
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd2, %rd6;
  ld.global.u32 %r9, [%rd7];
  mov.u32 %r6, sm;
  shl.b32 %r9, %r9, 4;
  add.u32 %r9, %r6, %r9;
  stmatrix.sync.aligned.m8n8.x{count}{trans}.shared.b16 [%r9], {src};
  bar.sync 0;
  shl.b32 %r7, %r1, 4;
  add.u32 %r8, %r6, %r7;
  ld.shared.v4.u32 {{%r10, %r11, %r12, %r13}}, [%r8];
  add.s64 %rd8, %rd3, %rd4;
  st.global.v4.u32 [%rd8], {{%r10, %r11, %r12, %r13}};
  ret;
}}
"""


@pytest.mark.parametrize("count,trans", list(itertools.product([1, 2, 4], [False, True])))
def test_stmatrix_stores_each_lane_s_fragment_where_the_isa_puts_it(count, trans):
    """The inverse of ldmatrix: lane l's register j holds row l / 4, columns 2 (l % 4) and +1 of matrix
    j (transposed with .trans), whose rows go to the addresses lanes 8j..8j+7 give."""
    regs = ["%r2", "%r3", "%r4", "%r5"][:count]
    text = STMATRIX.format(count=count, trans=".trans" if trans else "", src="{" + ", ".join(regs) + "}")
    rng = np.random.default_rng(count + 10 * trans)
    frag = rng.integers(0, 2**32, (32, 4), dtype=np.uint32)
    perm = rng.permutation(32).astype(np.uint32)  # lane l gives the address of shared row perm[l]
    dev = Device("H100")
    out = dev.zeros((32, 8), np.uint16)
    Module(text, name="stm.ptx").get_function("k")[1, 32](dev.to_device(frag), dev.to_device(perm), out)
    assert "STSM" in first_warp_opcodes(dev, version=90)
    assert dev.synchronize().completed
    want = np.zeros((32, 8), np.uint16)
    lanes = np.arange(32)
    for j in range(count):
        mat = np.zeros((8, 8), np.uint16)
        halves = np.ascontiguousarray(frag[:, j]).view(np.uint16).reshape(32, 2)
        mat[lanes >> 2, 2 * (lanes % 4)], mat[lanes >> 2, 2 * (lanes % 4) + 1] = halves[:, 0], halves[:, 1]
        want[perm[8 * j:8 * j + 8]] = mat.T if trans else mat
    np.testing.assert_array_equal(out.copy_to_host(), want)


def test_stmatrix_before_sm90_names_the_missing_sass():
    text = STMATRIX.format(count=1, trans="", src="{%r2}")
    dev = Device("A100")
    Module(text, name="stm.ptx").get_function("k")[1, 32](dev.zeros((32, 4), np.uint32),
                                                           dev.to_device(np.arange(32, dtype=np.uint32)),
                                                           dev.zeros((32, 8), np.uint16))
    with pytest.raises(PtxError, match="STSM"):
        dev.synchronize()


# --- refusals ---
@pytest.mark.parametrize("inst,message", [
    ("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%d0, %d1}, {%a0}, {%b0}, {%c0, %c1};",
     r"\.f64 multiplicands take \.m8n8k4, not \.m16n8k16"),
    ("mma.sync.aligned.m8n8k4.row.col.f32.f64.f64.f64 {%d0, %d1}, {%a0}, {%b0}, {%c0, %c1};",
     r"\.f64 multiplicands accumulate in \.f64, not \.f32"),
    ("mma.sync.aligned.m8n8k4.col.col.f64.f64.f64.f64 {%d0, %d1}, {%a0}, {%b0}, {%c0, %c1};", r"needs \.row\.col"),
    ("mma.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, "
     "{%c0, %c1, %c2, %c3};", r"\.s8 multiplicands take \.m16n8k32, \.m16n8k16 or \.m8n8k16, not \.m16n8k64"),
    ("mma.sync.aligned.m8n8k32.row.col.s32.s4.s8.s32 {%d0, %d1}, {%a0}, {%b0}, {%c0, %c1};",
     r"same type.*\.s4 and \.s8"),
    ("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%d0, %d1}, {%a0, %a1}, {%b0}, {%c0, %c1};",
     "a must be a vector of 1 registers"),
    ("mma.sync.aligned.m8n8k4.row.row.f32.f16.f16.f32 {%d0, %d1, %d2, %d3}, {%a0, %a1}, {%b0, %b1}, "
     "{%c0, %c1, %c2, %c3};", "d must be a vector of 8 registers"),
    ("wmma.mma.sync.aligned.row.col.m32n8k16.f32.tf32.tf32.f32 {%d0, %d1, %d2, %d3}, {%a0}, {%b0}, "
     "{%c0, %c1, %c2, %c3};", r"\.tf32 multiplicands take \.m16n16k8, not \.m32n8k16"),
    ("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.rn {%d0, %d1, %d2, %d3}, {%a0}, {%b0}, {%c0, %c1, %c2, %c3};",
     r"\.rn applies to \.f64 wmma\.mma only"),
    ("wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rz {%d0, %d1}, {%a0}, {%b0}, {%c0, %c1};",
     r"modifier '\.rz' is not allowed on 'wmma\.mma'"),
    ("wmma.load.c.sync.aligned.row.m8n8k4.f32 {%c0, %c1}, [%rd1];", r"\.m8n8k4 accumulators are \.f64"),
    ("wmma.load.a.sync.aligned.row.m32n8k16.s8 {%a0, %a1}, [%rd1];", "the fragment must be a vector of 4 registers"),
    ("wmma.load.a.sync.aligned.row.m8n32k16.s4 {%a0}, [%rd1];",
     r"modifier '\.s4' is not allowed on 'wmma\.load'"),
    ("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r1], {%a0, %a1};", "the source must be a vector of 4 registers"),
    (".reg .s4 %x;", r"\.s4 names a tensor-core fragment element"),
    ("stmatrix.sync.aligned.m8n8.x2.shared.b32 [%r1], {%a0, %a1};",
     r"'\.b32' is not allowed on 'stmatrix'"),
])
def test_malformed_forms_are_refused_naming_the_modifier(inst, message):
    text = HEAD + (".visible .entry k()\n{\n.reg .b32 %a<4>;\n.reg .b32 %b<2>;\n.reg .f32 %c<4>;\n.reg .f32 %d<4>;\n"
                   ".reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n" + inst + "\nret;\n}\n")
    with pytest.raises(PtxError, match=message):  # a modifier not allowed at all is refused when it runs
        m = Module(text, name="bad.ptx")
        dev = Device("A100")
        m.get_function("k")[1, 32](device=dev)
        dev.synchronize()


# --- the same forms as nvcc 13 emits them from CUDA C++ (sm_90: stmatrix needs it; the rest is sm_80's PTX) ---
SHAPES_CU = r"""
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;

template <int M, int N, int K, typename AB, typename C>
__device__ void tile(const AB* a, const AB* b, C* c) {  // c = a b + c: A row-major, B column-major
  wmma::fragment<wmma::matrix_a, M, N, K, AB, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, AB, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, C> fc;
  wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
  wmma::load_matrix_sync(fa, a, K);
  wmma::load_matrix_sync(fb, b, K);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, N, wmma::mem_row_major);
}
extern "C" __global__ void w32_f16(const half* a, const half* b, float* c) { tile<32, 8, 16>(a, b, c); }
extern "C" __global__ void w8_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c) {
  tile<8, 32, 16>(a, b, c);
}
extern "C" __global__ void w32_u8(const unsigned char* a, const unsigned char* b, int* c) { tile<32, 8, 16>(a, b, c); }
extern "C" __global__ void w_f64(const double* a, const double* b, double* c) { tile<8, 8, 4>(a, b, c); }

// inline-asm mma on lane-major words (16 a lane: A from word 0, B from 4, C from 8; D to 8)
extern "C" __global__ void mma_f64(const double* in, double* out) {
  const double* p = in + 8 * threadIdx.x;
  double d0, d1;
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
               : "=d"(d0), "=d"(d1) : "d"(p[0]), "d"(p[2]), "d"(p[4]), "d"(p[5]));
  out[8 * threadIdx.x + 4] = d0; out[8 * threadIdx.x + 5] = d1;
}
extern "C" __global__ void mma_ints(const unsigned* in, int* out8, int* out4) {
  const unsigned* p = in + 16 * threadIdx.x;
  int a, b;
  asm volatile("mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.u8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};"
               : "=r"(a), "=r"(b) : "r"(p[0]), "r"(p[4]), "r"(p[8]), "r"(p[9]));
  out8[16 * threadIdx.x + 8] = a; out8[16 * threadIdx.x + 9] = b;
  int x0, x1, x2, x3;
  const unsigned* q = in + 16 * 32 + 16 * threadIdx.x;
  asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.s4.u4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%10,%11,%12,%13};"
               : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(q[0]), "r"(q[1]), "r"(q[2]), "r"(q[3]), "r"(q[4]),
                 "r"(q[5]), "r"(q[8]), "r"(q[9]), "r"(q[10]), "r"(q[11]));
  int* o = out4 + 16 * threadIdx.x + 8;
  o[0] = x0; o[1] = x1; o[2] = x2; o[3] = x3;
}
extern "C" __global__ void mma_quad(const unsigned* in, float* out) {
  const unsigned* p = in + 16 * threadIdx.x;
  const float* c = reinterpret_cast<const float*>(p + 8);
  float d[8];
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, "
               "{%12,%13,%14,%15,%16,%17,%18,%19};"
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7])
               : "r"(p[0]), "r"(p[1]), "r"(p[4]), "r"(p[5]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "f"(c[4]),
                 "f"(c[5]), "f"(c[6]), "f"(c[7]));
  for (int i = 0; i < 8; i++) out[16 * threadIdx.x + 8 + i] = d[i];
}
// stmatrix.x4.trans of each lane's four words to the 32 shared rows lane l names (row l here), read back row-major
extern "C" __global__ void st_matrix(const unsigned* in, unsigned* out) {
  __shared__ __align__(16) unsigned short s[32 * 8];
  const unsigned* p = in + 4 * threadIdx.x;
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&s[8 * threadIdx.x]));
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};"
               :: "r"(addr), "r"(p[0]), "r"(p[1]), "r"(p[2]), "r"(p[3]));
  __syncthreads();
  const unsigned* row = reinterpret_cast<const unsigned*>(&s[8 * threadIdx.x]);
  for (int i = 0; i < 4; i++) out[4 * threadIdx.x + i] = row[i];
}
"""


@pytest.fixture(scope="module")
def shapes_cu():
    return tensor_module(SHAPES_CU, "shapes.cu", "sm_90")


def test_cuda_wmma_other_shapes_and_f64_match_numpy(shapes_cu):
    rng = np.random.default_rng(31)
    dev = Device("H100")
    A, B, C, av, bv = _operands(rng, "f16", 32, 8, 16, False)
    c1 = dev.to_device(C)
    shapes_cu.get_function("w32_f16")[1, 32](dev.to_device(A), dev.to_device(np.ascontiguousarray(B.T)), c1)
    A2, B2, C2, av2, bv2 = _operands(rng, "bf16", 8, 32, 16, False)
    c2 = dev.to_device(C2)
    shapes_cu.get_function("w8_bf16")[1, 32](dev.to_device(A2), dev.to_device(np.ascontiguousarray(B2.T)), c2)
    A3, B3, C3, av3, bv3 = _operands(rng, "u8", 32, 8, 16, False)
    c3 = dev.to_device(C3)
    shapes_cu.get_function("w32_u8")[1, 32](dev.to_device(A3), dev.to_device(np.ascontiguousarray(B3.T)), c3)
    A4, B4 = rng.integers(-2**20, 2**20, (8, 4)) * 2.0 ** -10, rng.integers(-2**20, 2**20, (4, 8)) * 2.0 ** -12
    C4 = rng.integers(-2**30, 2**30, (8, 8)) * 2.0 ** -8
    c4 = dev.to_device(C4)
    shapes_cu.get_function("w_f64")[1, 32](dev.to_device(A4), dev.to_device(np.ascontiguousarray(B4.T)), c4)
    assert dev.synchronize().completed
    np.testing.assert_array_equal(c1.copy_to_host(), av @ bv + C)
    np.testing.assert_array_equal(c2.copy_to_host(), av2 @ bv2 + C2)
    np.testing.assert_array_equal(c3.copy_to_host(), av3 @ bv3 + C3)
    np.testing.assert_array_equal(c4.copy_to_host(), A4 @ B4 + C4)


def test_cuda_inline_asm_f64_integer_and_quad_pair_mma_match_numpy(shapes_cu):
    rng = np.random.default_rng(32)
    dev = Device("H100")
    # f64 m8n8k4
    A, B = rng.integers(-2**20, 2**20, (8, 4)) * 2.0 ** -10, rng.integers(-2**20, 2**20, (4, 8)) * 2.0 ** -12
    C = rng.integers(-2**30, 2**30, (8, 8)) * 2.0 ** -8
    buf = np.zeros((32, 16), np.uint32)
    buf[:, 0:2], buf[:, 4:6] = words(A, lambda lane: m8_a(1, lane), 64, 2), words(B, lambda lane: m8_b(1, lane), 64, 2)
    buf[:, 8:12] = words(C, m8_c, 64, 4)
    out = dev.zeros((32, 16), np.uint32)
    shapes_cu.get_function("mma_f64")[1, 32](dev.to_device(buf), out)
    # s8 x u8 m8n8k16 (.satfinite) and s4 x u4 m16n8k64
    A8, B8 = rng.integers(-128, 128, (8, 16)), rng.integers(0, 256, (16, 8))
    C8 = np.where(rng.random((8, 8)) < 0.5, 2**31 - 5000, -2**31 + 5000).astype(np.int64)
    A4, B4 = rng.integers(-8, 8, (16, 64)), rng.integers(0, 16, (64, 8))
    C4 = rng.integers(-1000, 1000, (16, 8))
    ints = np.zeros((64, 16), np.uint32)
    ints[:32, 0:1] = words(A8.astype(np.int8), lambda lane: m8_a(4, lane), 8, 1)
    ints[:32, 4:5] = words(B8.astype(np.uint8), lambda lane: m8_b(4, lane), 8, 1)
    ints[:32, 8:10] = words(C8.astype(np.int32), m8_c, 32, 2)
    ints[32:, 0:4], ints[32:, 4:6] = words(A4, lambda lane: m16_a4(64, lane), 4, 4), words(
        B4, lambda lane: m16_b4(64, lane), 4, 2)
    ints[32:, 8:12] = words(C4.astype(np.int32), m16_c, 32, 4)
    o8, o4 = dev.zeros((32, 16), np.uint32), dev.zeros((32, 16), np.uint32)
    shapes_cu.get_function("mma_ints")[1, 32](dev.to_device(ints), o8, o4)
    # the quad-pair form, row.col, f32
    Aq, Bq = rng.integers(-8, 9, (32, 4)).astype(np.float16), rng.integers(-8, 9, (4, 32)).astype(np.float16)
    Cq = rng.integers(-50, 50, (32, 8)).astype(np.float32)
    q_of = lambda lane: (lane >> 2) & 3  # noqa: E731
    quad = np.zeros((32, 16), np.uint32)
    quad[:, 0:2] = words(Aq, lambda lane: qp_a(False, lane, q_of(lane)), 16, 2)
    quad[:, 4:6] = words(Bq, lambda lane: qp_b(True, lane, q_of(lane)), 16, 2)
    quad[:, 8:16] = words(Cq, lambda lane: qp_c(True, lane, q_of(lane)), 32, 8)
    oq = dev.zeros((32, 16), np.uint32)
    shapes_cu.get_function("mma_quad")[1, 32](dev.to_device(quad), oq)
    assert dev.synchronize().completed
    np.testing.assert_array_equal(unwords(out.copy_to_host()[:, 8:], m8_c, np.float64, (8, 8)), A @ B + C)
    np.testing.assert_array_equal(unwords(o8.copy_to_host()[:, 8:], m8_c, np.int32, (8, 8)),
                                  np.clip(A8 @ B8 + C8, -2**31, 2**31 - 1))
    np.testing.assert_array_equal(unwords(o4.copy_to_host()[:, 8:], m16_c, np.int32, (16, 8)), A4 @ B4 + C4)
    want = np.vstack([Aq[8 * q:8 * q + 8].astype(np.float64) @ Bq[:, 8 * q:8 * q + 8] for q in range(4)]) + Cq
    got = unwords(oq.copy_to_host()[:, 8:], lambda lane: qp_c(True, lane, q_of(lane)), np.float32, (32, 8))
    np.testing.assert_array_equal(got, want)


def test_cuda_stmatrix_trans_matches_numpy(shapes_cu):
    rng = np.random.default_rng(33)
    frag = rng.integers(0, 2**32, (32, 4), dtype=np.uint32)
    dev = Device("H100")
    out = dev.zeros((32, 4), np.uint32)
    shapes_cu.get_function("st_matrix")[1, 32](dev.to_device(frag), out)
    assert dev.synchronize().completed
    lanes = np.arange(32)
    want = np.zeros((32, 8), np.uint16)
    for j in range(4):
        mat = np.zeros((8, 8), np.uint16)
        halves = np.ascontiguousarray(frag[:, j]).view(np.uint16).reshape(32, 2)
        mat[lanes >> 2, 2 * (lanes % 4)], mat[lanes >> 2, 2 * (lanes % 4) + 1] = halves[:, 0], halves[:, 1]
        want[8 * j:8 * j + 8] = mat.T
    np.testing.assert_array_equal(out.copy_to_host().view(np.uint16).reshape(32, 8), want)
