"""Tensor-core PTX with tf32 and 8-bit integer multiplicands, and wmma with
bf16, tf32 and s8/u8 fragments, against NumPy: mma.sync m16n8k8 / m16n8k4
.tf32 (the multiplicands' low 13 mantissa bits ignored) and m16n8k16 /
m16n8k32 .s8/.u8 (exact integer sums, .satfinite), fragments placed by the
PTX ISA's per-type formulas written out here independently of the emulator;
cvt.rna.tf32.f32; their records (HMMA / IMMA counts as ptxas 13 emits for
sm_80, and the bytes a wmma load or store moves per lane); and the parser's
refusals naming the modifier at fault."""
from __future__ import annotations

import numpy as np
import pytest

from accelsim import PtxError
from accelsim.ptx import Device, Module
from cuda_util import tensor_module
from ptx_record_util import first_warp_opcodes
from test_ptx_mma import WMMA, _strided, _vec

HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n"


# --- the PTX ISA's mma fragment figures (g = groupID = lane >> 2, t = threadID_in_group = lane % 4) ---
def tf32_a(k: int, lane: int) -> list[tuple[int, int]]:
    g, t = lane >> 2, lane % 4
    if k == 4:
        return [(g, t), (g + 8, t)]
    return [(g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4)]


def tf32_b(k: int, lane: int) -> list[tuple[int, int]]:
    g, t = lane >> 2, lane % 4
    return [(t, g)] if k == 4 else [(t, g), (t + 4, g)]


def i8_a(k: int, lane: int) -> list[tuple[int, int]]:
    g, t = lane >> 2, lane % 4
    n = 8 if k == 16 else 16
    return [(g + 8 * ((i // 4) % 2), 4 * t + (i % 4) + (16 if i >= 8 else 0)) for i in range(n)]


def i8_b(k: int, lane: int) -> list[tuple[int, int]]:
    g, t = lane >> 2, lane % 4
    n = 4 if k == 16 else 8
    return [(4 * t + (i % 4) + (16 if i >= 4 else 0), g) for i in range(n)]


def acc(lane: int) -> list[tuple[int, int]]:
    g, t = lane >> 2, lane % 4
    return [(g + (8 if i >= 2 else 0), 2 * t + (i & 1)) for i in range(4)]


def pack(mat: np.ndarray, coords) -> np.ndarray:
    """Per lane, the elements at coords(lane) packed into 32-bit words (the first lowest), 4 words a lane."""
    rows = [np.array([mat[r, c] for r, c in coords(lane)], dtype=mat.dtype) for lane in range(32)]
    words = np.stack([r.view(np.uint32) for r in rows])
    return np.pad(words, ((0, 0), (0, 4 - words.shape[1])))


def unpack(words: np.ndarray, dtype, shape=(16, 8)) -> np.ndarray:
    out = np.zeros(shape, dtype=np.float64)
    for lane in range(32):
        for i, (r, c) in enumerate(acc(lane)):
            out[r, c] = words[lane].view(dtype)[i]
    return out


def mma_kernel(form: str, na: int, nb: int) -> str:
    """A kernel loading lane-major fragments (4 words a lane) and running `form` on them."""
    vec = lambda name, n: "{" + ", ".join(f"%{name}{i}" for i in range(n)) + "}"  # noqa: E731
    loads = "".join(f"  ld.global.b32 %{x}{i}, [%rd{5 + j}+{4 * i}];\n"
                    for j, (x, n) in enumerate([("a", na), ("b", nb), ("c", 4)]) for i in range(n))
    stores = "".join(f"  st.global.b32 [%rd8+{4 * i}], %d{i};\n" for i in range(4))
    return HEAD + f""".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)
{{
  .reg .b32 %a<4>;
  .reg .b32 %b<2>;
  .reg .b32 %c<4>;
  .reg .b32 %d<4>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<12>;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 16;
  ld.param.u64 %rd1, [pa];
  add.s64 %rd5, %rd1, %rd4;
  ld.param.u64 %rd1, [pb];
  add.s64 %rd6, %rd1, %rd4;
  ld.param.u64 %rd1, [pc];
  add.s64 %rd7, %rd1, %rd4;
  ld.param.u64 %rd1, [pd];
  add.s64 %rd8, %rd1, %rd4;
{loads}  {form} {vec("d", 4)}, {vec("a", na)}, {vec("b", nb)}, {vec("c", 4)};
{stores}  ret;
}}
"""


def run_mma(form: str, A, B, C, coords_a, coords_b, na: int, nb: int):
    """(D as words per lane, the first warp's SASS opcodes) on A100 (sm_80)."""
    dev = Device("A100")
    out = dev.zeros((32, 4), np.uint32)
    bufs = [dev.to_device(pack(A, coords_a)), dev.to_device(pack(B, coords_b)), dev.to_device(pack(C, acc))]
    Module(mma_kernel(form, na, nb), name="mma.ptx").get_function("k")[1, 32](*bufs, out)
    ops = first_warp_opcodes(dev, version=80)
    assert dev.synchronize().completed
    return out.copy_to_host(), ops


def tf32_round_down(m: np.ndarray) -> np.ndarray:
    """What the tensor unit reads of an f32 as a tf32: the low 13 mantissa bits cleared."""
    return (m.astype(np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


@pytest.mark.parametrize("k,exact", [(8, True), (8, False), (4, True), (4, False)])
def test_mma_tf32_matches_numpy_on_inputs_read_as_tf32(k, exact):
    rng = np.random.default_rng(100 + k + exact)
    if exact:  # small integers: every tf32 product and f32 sum exact
        A, B = rng.integers(-8, 9, (16, k)).astype(np.float32), rng.integers(-8, 9, (k, 8)).astype(np.float32)
        A += np.float32(2.0 ** -12) * np.sign(A)  # below tf32's precision: the unit must ignore it
    else:
        A, B = rng.standard_normal((16, k)).astype(np.float32), rng.standard_normal((k, 8)).astype(np.float32)
    C = rng.integers(-50, 50, (16, 8)).astype(np.float32)
    form = f"mma.sync.aligned.m16n8k{k}.row.col.f32.tf32.tf32.f32"
    na, nb = (4, 2) if k == 8 else (2, 1)
    words, ops = run_mma(form, A, B, C, lambda lane: tf32_a(k, lane), lambda lane: tf32_b(k, lane), na, nb)
    assert ops.count("HMMA") == 1  # HMMA.1688.F32.TF32 / HMMA.1684.F32.TF32
    got = unpack(words, np.float32)
    ta, tb = tf32_round_down(A).astype(np.float64), tf32_round_down(B).astype(np.float64)
    want = ta @ tb + C
    if exact:
        np.testing.assert_array_equal(got, want)
        assert not np.array_equal(got, A.astype(np.float64) @ B + C)  # the ignored bits would have shown
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def near_limits(rng, shape) -> np.ndarray:
    """int32 accumulators within 2^17 of either limit: the products' sum crosses them often."""
    off = rng.integers(0, 2**17, shape)
    return np.where(rng.random(shape) < 0.5, 2**31 - 1 - off, -2**31 + off).astype(np.int32)


@pytest.mark.parametrize("k,at,bt,sat", [
    (16, "s8", "s8", False), (32, "s8", "s8", False), (16, "u8", "u8", False), (32, "u8", "s8", False),
    (16, "s8", "u8", True), (32, "s8", "s8", True),
])
def test_mma_int8_sums_exactly(k, at, bt, sat):
    rng = np.random.default_rng(k + 3 * sat + len(at + bt))
    npt = {"s8": np.int8, "u8": np.uint8}
    lo = {"s8": -128, "u8": 0}
    A = rng.integers(lo[at], lo[at] + 256, (16, k)).astype(npt[at])
    B = rng.integers(lo[bt], lo[bt] + 256, (k, 8)).astype(npt[bt])
    C = near_limits(rng, (16, 8))
    form = f"mma.sync.aligned.m16n8k{k}.row.col{'.satfinite' if sat else ''}.s32.{at}.{bt}.s32"
    na, nb = (2, 1) if k == 16 else (4, 2)
    words, ops = run_mma(form, A, B, C, lambda lane: i8_a(k, lane), lambda lane: i8_b(k, lane), na, nb)
    assert ops.count("IMMA") == 1 and "HMMA" not in ops
    got = unpack(words, np.int32).astype(np.int64)
    exact = A.astype(np.int64) @ B.astype(np.int64) + C
    want = np.clip(exact, -2**31, 2**31 - 1) if sat else (exact + 2**31) % 2**32 - 2**31
    assert (exact != want).any()  # C near the int32 limits: overflow is exercised
    np.testing.assert_array_equal(got, want)


CVT = HEAD + """.visible .entry k(.param .u64 px, .param .u64 py)
{
  .reg .f32 %f<2>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd2, [py];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  cvt.rna.tf32.f32 %r0, %f1;
  st.global.b32 [%rd5], %r0;
  ret;
}
"""


def test_cvt_rna_tf32_rounds_as_ptxas_lowers_it():
    """Finite values: bits + 0x1000 (nearest, ties away; the low 13 bits as the add leaves them,
    which the tensor unit ignores); inf and NaN unchanged."""
    x = np.array([1.0, 1.0 + 2.0**-11, 1.0 + 2.0**-10 + 2.0**-11, -1.0 - 2.0**-11, 3.4e38, np.inf, -np.inf,
                  np.nan, 1e-40, 0.0] + [1.5] * 22, np.float32)
    dev = Device("A100")
    out = dev.zeros(32, np.uint32)
    Module(CVT, name="cvt.ptx").get_function("k")[1, 32](dev.to_device(x), out)
    assert dev.synchronize().completed
    bits = x.view(np.uint32)
    finite = np.isfinite(x)
    want = np.where(finite, bits + np.uint32(0x1000), bits)
    got = out.copy_to_host()
    np.testing.assert_array_equal(got, want)
    rounded = (got & np.uint32(0xFFFFE000)).view(np.float32)
    assert rounded[1] == np.float32(1.0 + 2.0**-10)  # a tie rounds away from zero
    assert rounded[2] == np.float32(1.0 + 2.0**-9)
    assert rounded[3] == np.float32(-1.0 - 2.0**-10)


# --- wmma with bf16 / tf32 / s8 / u8 fragments ---
def _bf16(m: np.ndarray) -> np.ndarray:
    return (m.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


@pytest.mark.parametrize("ab,la,lb,lc,ldl,sat", [
    ("bf16", "row", "col", "row", "row", False), ("bf16", "col", "row", "col", "col", False),
    ("tf32", "row", "col", "row", "row", False), ("tf32", "col", "col", "row", "col", False),
    ("s8", "row", "col", "row", "row", False), ("s8", "col", "row", "col", "row", True),
    ("u8", "row", "row", "row", "col", False),
])
def test_wmma_with_bf16_tf32_and_int8_fragments_matches_numpy(ab, la, lb, lc, ldl, sat):
    rng = np.random.default_rng(len(ab + la + lb + lc + ldl) + sat)
    k = 8 if ab == "tf32" else 16
    ld = 24  # a tile of a wider array
    if ab in ("s8", "u8"):
        lo = -128 if ab == "s8" else 0
        A = rng.integers(lo, lo + 256, (16, k)).astype(np.int8 if ab == "s8" else np.uint8)
        B = rng.integers(lo, lo + 256, (k, 16)).astype(A.dtype)
        C = near_limits(rng, (16, 16)) if sat else rng.integers(-1000, 1000, (16, 16)).astype(np.int32)
        mA, mB, ct, regs = A, B, "s32", (2, 2, 8)
    else:
        A = rng.integers(-40, 41, (16, k)).astype(np.float32) / 8  # exact in bf16 and tf32
        B = rng.integers(-40, 41, (k, 16)).astype(np.float32) / 4
        if ab == "tf32":
            A += np.float32(2.0 ** -14) * np.sign(A)  # below tf32's precision: ignored
        C = rng.integers(-100, 100, (16, 16)).astype(np.float32)
        mA, mB = (_bf16(A), _bf16(B)) if ab == "bf16" else (A, B)
        ct, regs = "f32", (4, 4, 8)
    text = WMMA.format(la=la, lb=lb, lc=lc, ldl=ldl, shape=f"m16n16k{k}", ab=ab, ct=ct, dt=ct, creg=".b32",
                       dreg=".b32", types=f"{ct}.{ab}.{ab}.{ct}" + (".satfinite" if sat else ""),
                       va=_vec("a", regs[0]), vb=_vec("b", regs[1]), vc=_vec("c", 8), vd=_vec("d", 8))
    dev = Device("A100")
    out = dev.zeros(16 * ld, C.dtype)
    Module(text, name="wmma.ptx").get_function("k")[1, 32](
        dev.to_device(_strided(mA, la, ld)), dev.to_device(_strided(mB, lb, ld)),
        dev.to_device(_strided(C, lc, ld)), out, np.uint32(ld))
    ops = first_warp_opcodes(dev, version=80)
    unit = "IMMA" if ct == "s32" else "HMMA"
    assert ops.count(unit) == (4 if ab == "tf32" else 2)  # ptxas 13, sm_80: 4 HMMA.1684 for tf32
    assert dev.synchronize().completed
    got = out.copy_to_host().reshape(16, ld)[:, :16]
    if ldl == "col":
        got = got.T
    if ct == "s32":
        exact = A.astype(np.int64) @ B.astype(np.int64) + C
        want = np.clip(exact, -2**31, 2**31 - 1) if sat else exact
        if sat:
            assert (exact != want).any()
        np.testing.assert_array_equal(got.astype(np.int64), want)
    else:
        ta, tb = (tf32_round_down(A), tf32_round_down(B)) if ab == "tf32" else (A, B)
        np.testing.assert_array_equal(got.astype(np.float64), ta.astype(np.float64) @ tb + C)


def test_wmma_records_move_the_fragment_bytes_ptxas_moves():
    """One load/store record per fragment, of its distinct bytes per lane: s8 A and B 8 (ptxas: two
    4-byte LDG), s32 C and D 32 (four 8-byte LDG / STG)."""
    from accelsim import _core
    from accelsim.ptx.save import _opcode_names
    from accelsim.trace._records import RAW_DTYPE

    text = WMMA.format(la="row", lb="col", lc="row", ldl="row", shape="m16n16k16", ab="s8", ct="s32", dt="s32",
                       creg=".b32", dreg=".b32", types="s32.s8.s8.s32", va=_vec("a", 2), vb=_vec("b", 2),
                       vc=_vec("c", 8), vd=_vec("d", 8))
    dev = Device("A100")
    bufs = [dev.zeros(16 * 16, np.int8), dev.zeros(16 * 16, np.int8), dev.zeros(256, np.int32),
            dev.zeros(256, np.int32)]
    Module(text, name="wmma.ptx").get_function("k")[1, 32](*bufs, np.uint32(16))
    src = _core.PtxBlocks(dev._tables, dev._pending[-1].command, 80, 1)
    _, raw, warp_begin, _ = src.next_block()
    recs = np.frombuffer(raw, dtype=RAW_DTYPE)[warp_begin[0]:warp_begin[1]]
    names = _opcode_names(80)
    mem = [(names[int(r["opcode"])], int(r["access_bytes"])) for r in recs
           if names[int(r["opcode"])] in ("LDG", "ST")]
    assert mem == [("LDG", 8), ("LDG", 8), ("LDG", 32), ("ST", 32)]  # A, B, C, D (a generic store)
    assert dev.synchronize().completed


@pytest.mark.parametrize("inst,message", [
    ("mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, "
     "{%b0, %b1}, {%c0, %c1, %c2, %c3};", r"\.tf32 multiplicands take \.m16n8k8 or \.m16n8k4, not \.m16n8k16"),
    ("mma.sync.aligned.m16n8k8.row.col.f32.s8.s8.s32 {%d0, %d1, %d2, %d3}, {%a0, %a1}, {%b0}, "
     "{%c0, %c1, %c2, %c3};", r"\.s8 multiplicands take \.m16n8k32, \.m16n8k16 or \.m8n8k16, not \.m16n8k8"),
    ("mma.sync.aligned.m16n8k16.row.col.f32.s8.s8.f32 {%d0, %d1, %d2, %d3}, {%a0, %a1}, {%b0}, "
     "{%c0, %c1, %c2, %c3};", r"\.s8 multiplicands accumulate in \.s32, not \.f32"),
    ("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0}, "
     "{%c0, %c1, %c2, %c3};", "a must be a vector of 2 registers"),
    ("mma.sync.aligned.m16n8k8.row.col.satfinite.f32.tf32.tf32.f32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, "
     "{%b0, %b1}, {%c0, %c1, %c2, %c3};", r"\.satfinite applies to integer"),
    ("mma.sync.aligned.m16n8k8.row.col.f32.tf32.bf16.f32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, "
     "{%b0, %b1}, {%c0, %c1, %c2, %c3};", r"same type.*\.tf32 and \.bf16"),
    ("wmma.load.a.sync.aligned.row.m16n16k16.global.tf32 {%a0, %a1, %a2, %a3}, [%rd1];",
     r"\.tf32 fragments take \.m16n16k8, not \.m16n16k16"),
    ("wmma.load.a.sync.aligned.row.m16n16k16.global.s8 {%a0, %a1, %a2, %a3}, [%rd1];",
     "the fragment must be a vector of 2 registers"),
    ("wmma.load.c.sync.aligned.row.m16n16k8.global.s32 {%c0, %c1, %c2, %c3}, [%rd1];",
     r"\.m16n16k8 accumulators are \.f32"),
    ("wmma.mma.sync.aligned.row.col.m16n16k16.s32.u8.s8.s32 {%d0, %d1, %d2, %d3}, {%a0, %a1}, {%b0, %b1}, "
     "{%c0, %c1, %c2, %c3};", r"same type.*\.u8 and \.s8"),
    ("cvt.rn.tf32.f32 %r1, %c0;", r"\.rna"),
    ("cvt.rna.f32.f32 %c0, %c1;", r"\.rna rounds only to \.tf32"),
    ("cvt.rna.tf32.f64 %r1, %rd1;", r"converts only from \.f32"),
])
def test_malformed_tensor_forms_are_refused_naming_the_modifier(inst, message):
    text = HEAD + (".visible .entry k()\n{\n.reg .b32 %a<4>;\n.reg .b32 %b<2>;\n.reg .f32 %c<4>;\n.reg .f32 %d<4>;\n"
                   ".reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n" + inst + "\nret;\n}\n")
    with pytest.raises(PtxError, match=message):
        Module(text, name="bad.ptx")


def test_int8_mma_on_a_gpu_without_imma_names_the_missing_sass():
    """QV100 (sm_70) has no integer tensor instructions, as ptxas refuses them there."""
    A = np.zeros((16, 16), np.int8)
    dev = Device("QV100")
    out = dev.zeros((32, 4), np.uint32)
    bufs = [dev.to_device(pack(A, lambda lane: i8_a(16, lane))),
            dev.to_device(pack(A[:, :8], lambda lane: i8_b(16, lane))), dev.zeros((32, 4), np.uint32)]
    Module(mma_kernel("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", 2, 1), name="mma.ptx").get_function("k")[
        1, 32](*bufs, out)
    with pytest.raises(PtxError, match="IMMA"):
        dev.synchronize()


# --- the same forms as nvcc 13 emits them from CUDA C++ (sm_80) ---
TENSOR_CU = r"""
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;

extern "C" __global__ void wmma_tf32(const float* a, const float* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 8);
  for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
  for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

extern "C" __global__ void wmma_s8(const signed char* a, const signed char* b, int* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc, true);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

extern "C" __global__ void wmma_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

// inline-asm mma on lane-major fragments, 4 words a lane
extern "C" __global__ void mma_asm(const unsigned* a, const unsigned* b, const unsigned* a8, const unsigned* b8,
                                   float* d, int* di) {
  const unsigned* pa = a + 4 * threadIdx.x;
  const unsigned* pb = b + 4 * threadIdx.x;
  float f0 = 0, f1 = 0, f2 = 0, f3 = 0;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%0,%1,%2,%3};"
               : "+f"(f0), "+f"(f1), "+f"(f2), "+f"(f3) : "r"(pa[0]), "r"(pa[1]), "r"(pa[2]), "r"(pa[3]),
                 "r"(pb[0]), "r"(pb[1]));
  float* pd = d + 4 * threadIdx.x;
  pd[0] = f0; pd[1] = f1; pd[2] = f2; pd[3] = f3;
  const unsigned* qa = a8 + 4 * threadIdx.x;
  const unsigned* qb = b8 + 4 * threadIdx.x;
  int i0 = 0, i1 = 0, i2 = 0, i3 = 0;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
               "{%8,%9}, {%0,%1,%2,%3};"
               : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(qa[0]), "r"(qa[1]), "r"(qa[2]), "r"(qa[3]),
                 "r"(qb[0]), "r"(qb[1]));
  int* pi = di + 4 * threadIdx.x;
  pi[0] = i0; pi[1] = i1; pi[2] = i2; pi[3] = i3;
}
"""


def _rna_tf32(m: np.ndarray) -> np.ndarray:
    """__float_to_tf32 as the tensor unit then reads it: nearest, ties away, low 13 bits dropped."""
    bits = m.astype(np.float32).view(np.uint32)
    return ((bits + np.uint32(0x1000)) & np.uint32(0xFFFFE000)).view(np.float32)


@pytest.fixture(scope="module")
def tensor_cu():
    return tensor_module(TENSOR_CU, "tensor.cu", "sm_80")


def test_cuda_wmma_tf32_with_float_to_tf32_matches_numpy(tensor_cu):
    rng = np.random.default_rng(21)
    A, B = rng.standard_normal((16, 8)).astype(np.float32), rng.standard_normal((8, 16)).astype(np.float32)
    dev = Device("A100")
    out = dev.zeros((16, 16), np.float32)
    tensor_cu.get_function("wmma_tf32")[1, 32](dev.to_device(A), dev.to_device(np.ascontiguousarray(B.T)), out)
    assert dev.synchronize().completed
    want = _rna_tf32(A).astype(np.float64) @ _rna_tf32(B).astype(np.float64)
    np.testing.assert_allclose(out.copy_to_host(), want, rtol=1e-5, atol=1e-5)
    assert not np.allclose(out.copy_to_host(), A.astype(np.float64) @ B, rtol=1e-6, atol=1e-6)


def test_cuda_wmma_s8_saturates_and_bf16_matches_numpy(tensor_cu):
    rng = np.random.default_rng(22)
    A = rng.integers(-128, 128, (16, 16)).astype(np.int8)
    B = rng.integers(-128, 128, (16, 16)).astype(np.int8)
    C = near_limits(rng, (16, 16))
    dev = Device("A100")
    dc = dev.to_device(C)
    tensor_cu.get_function("wmma_s8")[1, 32](dev.to_device(A), dev.to_device(np.ascontiguousarray(B.T)), dc)
    Af = rng.integers(-40, 41, (16, 16)).astype(np.float32) / 8
    Bf = rng.integers(-40, 41, (16, 16)).astype(np.float32) / 4
    out = dev.zeros((16, 16), np.float32)
    bt = np.ascontiguousarray(Bf.T)
    tensor_cu.get_function("wmma_bf16")[1, 32](dev.to_device(_bf16(Af)), dev.to_device(_bf16(bt)), out)
    assert dev.synchronize().completed
    exact = A.astype(np.int64) @ B.astype(np.int64) + C
    np.testing.assert_array_equal(dc.copy_to_host(), np.clip(exact, -2**31, 2**31 - 1))
    np.testing.assert_array_equal(out.copy_to_host(), Af.astype(np.float64) @ Bf)


def test_cuda_inline_asm_mma_tf32_and_u8_s8_match_numpy(tensor_cu):
    rng = np.random.default_rng(23)
    A, B = rng.standard_normal((16, 8)).astype(np.float32), rng.standard_normal((8, 8)).astype(np.float32)
    A8 = rng.integers(0, 256, (16, 32)).astype(np.uint8)
    B8 = rng.integers(-128, 128, (32, 8)).astype(np.int8)
    dev = Device("A100")
    d, di = dev.zeros((32, 4), np.uint32), dev.zeros((32, 4), np.uint32)
    tensor_cu.get_function("mma_asm")[1, 32](
        dev.to_device(pack(A, lambda lane: tf32_a(8, lane))), dev.to_device(pack(B, lambda lane: tf32_b(8, lane))),
        dev.to_device(pack(A8, lambda lane: i8_a(32, lane))), dev.to_device(pack(B8, lambda lane: i8_b(32, lane))),
        d, di)
    assert dev.synchronize().completed
    want = tf32_round_down(A).astype(np.float64) @ tf32_round_down(B).astype(np.float64)
    np.testing.assert_allclose(unpack(d.copy_to_host(), np.float32), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(unpack(di.copy_to_host(), np.int32), A8.astype(np.int64) @ B8.astype(np.int64))
