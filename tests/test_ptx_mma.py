"""Tensor-core PTX against NumPy: mma.sync (m16n8k16, m16n8k8; f16
multiplicands, f16 or f32 accumulators) with fragments laid out by the PTX
ISA's figures (written here from the ISA's formulas, independently of the
emulator), ldmatrix (.x1/.x2/.x4, .trans), and wmma.load / wmma.mma /
wmma.store (m16n16k16, row and column layouts, strides, f16 and f32
accumulators); and their records for the timing model (HMMA, LDSM)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import accelsim
from accelsim import PtxError
from accelsim.ptx import Device, Module
from ptx_record_util import first_warp_opcodes

HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n"
LANES = np.arange(32)


# --- the PTX ISA's mma fragment layouts (groupID = lane >> 2, threadID_in_group = lane % 4) ---
def a_coords(k: int, lane: int) -> list[tuple[int, int]]:
    g, t = lane >> 2, lane % 4
    n = 8 if k == 16 else 4
    return [(g if i % 4 < 2 else g + 8, t * 2 + (i & 1) + (8 if i >= 4 else 0)) for i in range(n)]


def b_coords(k: int, lane: int) -> list[tuple[int, int]]:
    g, t = lane >> 2, lane % 4
    if k == 8:
        return [(t * 2 + i, g) for i in range(2)]
    return [(t * 2 + (i & 1) + (8 if i >= 2 else 0), g) for i in range(4)]


def c_coords(lane: int) -> list[tuple[int, int]]:
    g, t = lane >> 2, lane % 4
    return [(g if i < 2 else g + 8, t * 2 + (i & 1)) for i in range(4)]


def fragments(mat: np.ndarray, coords, dtype) -> np.ndarray:
    """Per lane, the elements at `coords(lane)` as 32-bit words (two halves a word), padded to 4 words."""
    rows = [np.array([mat[r, c] for r, c in coords(lane)], dtype=dtype) for lane in range(32)]
    words = np.stack([r.view(np.uint32) for r in rows])
    return np.pad(words, ((0, 0), (0, 4 - words.shape[1])))


def unfragment(words: np.ndarray, coords, dtype, shape) -> np.ndarray:
    out = np.zeros(shape, dtype=np.float64)
    for lane in range(32):
        vals = words[lane].view(dtype)
        for i, (r, c) in enumerate(coords(lane)):
            out[r, c] = vals[i]
    return out


def mma_ptx(k: int, dtype: str, ctype: str, ab: str = "f16") -> str:
    na, nb = (4, 2) if k == 16 else (2, 1)
    nc, nd = (4 if ctype == "f32" else 2), (4 if dtype == "f32" else 2)
    reg = {"f32": ".f32", "f16": ".b32"}

    def loads(name, base, n, ty):
        return "".join(f"  ld.global{ty} %{name}{i}, [{base}+{4 * i}];\n" for i in range(n))

    vec = lambda name, n: "{" + ", ".join(f"%{name}{i}" for i in range(n)) + "}"  # noqa: E731
    return HEAD + f""".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)
{{
  .reg .b32 %a<4>;
  .reg .b32 %b<2>;
  .reg {reg[ctype]} %c<4>;
  .reg {reg[dtype]} %d<4>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [pc];
  ld.param.u64 %rd4, [pd];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 16;
  add.s64 %rd6, %rd1, %rd5;
  add.s64 %rd7, %rd2, %rd5;
  add.s64 %rd8, %rd3, %rd5;
  add.s64 %rd9, %rd4, %rd5;
{loads("a", "%rd6", na, ".b32")}{loads("b", "%rd7", nb, ".b32")}{loads("c", "%rd8", nc, reg[ctype])}\
  mma.sync.aligned.m16n8k{k}.row.col.{dtype}.{ab}.{ab}.{ctype} {vec("d", nd)}, {vec("a", na)}, {vec("b", nb)}, \
{vec("c", nc)};
{"".join(f"  st.global{reg[dtype]} [%rd9+{4 * i}], %d{i};" + chr(10) for i in range(nd))}  ret;
}}
"""


def _halves(rng, shape, exact: bool) -> np.ndarray:
    if exact:  # small integers: every product and sum exact, so results compare bit for bit
        return rng.integers(-3, 4, shape).astype(np.float16)
    return rng.uniform(-1, 1, shape).astype(np.float16)


@pytest.mark.parametrize("k,dtype,ctype,exact", [
    (16, "f32", "f32", True), (16, "f32", "f32", False), (16, "f16", "f16", True), (16, "f16", "f32", True),
    (16, "f32", "f16", True), (8, "f32", "f32", True), (8, "f16", "f16", False),
])
def test_mma_sync_matches_numpy(k, dtype, ctype, exact):
    rng = np.random.default_rng(k * 7 + len(dtype + ctype) + exact)
    A, B = _halves(rng, (16, k), exact), _halves(rng, (k, 8), exact)
    cnp = np.float32 if ctype == "f32" else np.float16
    C = _halves(rng, (16, 8), exact).astype(cnp)
    dev = Device("A100")
    bufs = [dev.to_device(fragments(A, lambda lane: a_coords(k, lane), np.float16)),
            dev.to_device(fragments(B, lambda lane: b_coords(k, lane), np.float16)),
            dev.to_device(fragments(C, c_coords, cnp))]
    out = dev.zeros((32, 4), np.uint32)
    Module(mma_ptx(k, dtype, ctype), name="mma.ptx").get_function("k")[1, 32](*bufs, out)
    ops = first_warp_opcodes(dev, version=80)
    assert ops.count("HMMA") == 1
    assert dev.synchronize().completed
    dnp = np.float32 if dtype == "f32" else np.float16
    got = unfragment(out.copy_to_host(), c_coords, dnp, (16, 8))
    want = A.astype(np.float64) @ B.astype(np.float64) + C.astype(np.float64)
    if exact:
        np.testing.assert_array_equal(got, want)
    else:
        tol = 4e-3 if dtype == "f16" else 1e-5
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


LDMATRIX = HEAD + """.visible .entry k(.param .u64 psrc, .param .u64 pperm, .param .u64 pout)
{{
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  .shared .align 16 .b8 sm[512];
  ld.param.u64 %rd1, [psrc];
  ld.param.u64 %rd2, [pperm];
  ld.param.u64 %rd3, [pout];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 16;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.v4.u32 {{%r2, %r3, %r4, %r5}}, [%rd5];
  mov.u32 %r6, sm;
  shl.b32 %r7, %r1, 4;
  add.u32 %r8, %r6, %r7;
  st.shared.v4.u32 [%r8], {{%r2, %r3, %r4, %r5}};
  bar.sync 0;
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd2, %rd6;
  ld.global.u32 %r9, [%rd7];
  shl.b32 %r9, %r9, 4;
  add.u32 %r9, %r6, %r9;
  ldmatrix.sync.aligned.m8n8.x{count}{trans}.shared.b16 {dest}, [%r9];
  add.s64 %rd8, %rd3, %rd4;
{stores}  ret;
}}
"""


@pytest.mark.parametrize("count,trans", list(itertools.product([1, 2, 4], [False, True])))
def test_ldmatrix_gives_each_lane_its_rows_as_the_isa_lays_them_out(count, trans):
    regs = ["%r2", "%r3", "%r4", "%r5"][:count]
    dest = "{" + ", ".join(regs) + "}" if count > 1 else "{%r2}"
    stores = "".join(f"  st.global.u32 [%rd8+{4 * j}], {r};\n" for j, r in enumerate(regs))
    text = LDMATRIX.format(count=count, trans=".trans" if trans else "", dest=dest, stores=stores)
    rng = np.random.default_rng(count + 10 * trans)
    src = rng.integers(0, 2**16, 32 * 8, dtype=np.uint16)  # 32 rows of 8 halves
    perm = rng.permutation(32).astype(np.uint32)  # lane l gives the address of row perm[l]
    dev = Device("A100")
    out = dev.zeros((32, 4), np.uint32)
    Module(text, name="ldm.ptx").get_function("k")[1, 32](dev.to_device(src), dev.to_device(perm), out)
    assert "LDSM" in first_warp_opcodes(dev, version=80)
    assert dev.synchronize().completed
    got = out.copy_to_host()
    rows = src.reshape(32, 8)
    for j in range(count):
        mat = rows[perm[8 * j:8 * j + 8]]  # matrix j: the rows lanes 8j..8j+7 point at
        if trans:
            mat = mat.T
        lo, hi = mat[LANES >> 2, 2 * (LANES % 4)], mat[LANES >> 2, 2 * (LANES % 4) + 1]
        want = lo.astype(np.uint32) | (hi.astype(np.uint32) << 16)
        np.testing.assert_array_equal(got[:, j], want)


WMMA = HEAD + """.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd, .param .u32 ld)
{{
  .reg .b32 %a<8>;
  .reg .b32 %b<8>;
  .reg {creg} %c<8>;
  .reg {dreg} %d<8>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [pc];
  ld.param.u64 %rd4, [pd];
  ld.param.u32 %r1, [ld];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  cvta.to.global.u64 %rd3, %rd3;
  wmma.load.a.sync.aligned.{la}.{shape}.global.{ab} {va}, [%rd1], %r1;
  wmma.load.b.sync.aligned.{lb}.{shape}.global.{ab} {vb}, [%rd2], %r1;
  wmma.load.c.sync.aligned.{lc}.{shape}.global.{ct} {vc}, [%rd3], %r1;
  wmma.mma.sync.aligned.{la}.{lb}.{shape}.{types} {vd}, {va}, {vb}, {vc};
  wmma.store.d.sync.aligned.{ldl}.{shape}.{dt} [%rd4], {vd}, %r1;
  ret;
}}
"""
# wmma.load a, b, c, wmma.mma, wmma.store d: `types` is wmma.mma's type list (.dtype.ctype for
# f16 multiplicands, else .dtype.atype.btype.ctype{.satfinite}).


def _vec(name: str, n: int) -> str:
    return "{" + ", ".join(f"%{name}{i}" for i in range(n)) + "}"


def _strided(mat: np.ndarray, layout: str, ld: int) -> np.ndarray:
    """`mat` (16 x 16, 16 x 8 or 8 x 16) stored row- or column-major with leading dimension ld."""
    buf = np.zeros(max(mat.shape) * ld, dtype=mat.dtype)
    src = mat if layout == "row" else mat.T
    buf.reshape(-1, ld)[:src.shape[0], :src.shape[1]] = src
    return buf


@pytest.mark.parametrize("la,lb,lc,ldl,dt,ct", [
    ("row", "row", "row", "row", "f32", "f32"), ("col", "row", "col", "row", "f32", "f32"),
    ("row", "col", "row", "col", "f32", "f32"), ("col", "col", "row", "row", "f16", "f16"),
    ("row", "row", "col", "col", "f32", "f16"), ("row", "col", "row", "row", "f16", "f32"),
])
def test_wmma_load_mma_store_matches_numpy(la, lb, lc, ldl, dt, ct):
    rng = np.random.default_rng(len(la + lb + lc + ldl + dt + ct))
    ld = 24  # a 16x16 tile of a wider array
    A, B = _halves(rng, (16, 16), True), _halves(rng, (16, 16), True)
    cnp, dnp = (np.float32 if ct == "f32" else np.float16), (np.float32 if dt == "f32" else np.float16)
    C = _halves(rng, (16, 16), True).astype(cnp)
    text = WMMA.format(la=la, lb=lb, lc=lc, ldl=ldl, shape="m16n16k16", ab="f16", types=f"{dt}.{ct}", dt=dt, ct=ct,
                       creg=".f32" if ct == "f32" else ".b32",
                       dreg=".f32" if dt == "f32" else ".b32", va=_vec("a", 8), vb=_vec("b", 8),
                       vc=_vec("c", 8 if ct == "f32" else 4), vd=_vec("d", 8 if dt == "f32" else 4))
    dev = Device("QV100")
    out = dev.zeros(16 * ld, dnp)
    Module(text, name="wmma.ptx").get_function("k")[1, 32](
        dev.to_device(_strided(A, la, ld)), dev.to_device(_strided(B, lb, ld)), dev.to_device(_strided(C, lc, ld)),
        out, np.uint32(ld))
    assert first_warp_opcodes(dev).count("HMMA") == 2
    assert dev.synchronize().completed
    got = out.copy_to_host().reshape(16, ld)[:, :16]
    if ldl == "col":
        got = got.T
    np.testing.assert_array_equal(got.astype(np.float64), A.astype(np.float64) @ B.astype(np.float64) + C)


def test_mma_with_bf16_multiplicands_matches_numpy():
    rng = np.random.default_rng(11)
    A = rng.integers(-40, 41, (16, 16)).astype(np.float32) / 8  # exact in bf16 (8 significant bits)
    B = rng.integers(-40, 41, (16, 8)).astype(np.float32) / 4
    C = rng.standard_normal((16, 8)).astype(np.float32)

    def bf16_bits(m):
        return (m.view(np.uint32) >> 16).astype(np.uint16)

    dev = Device("A100")
    bufs = [dev.to_device(fragments(bf16_bits(A), lambda lane: a_coords(16, lane), np.uint16)),
            dev.to_device(fragments(bf16_bits(B), lambda lane: b_coords(16, lane), np.uint16)),
            dev.to_device(fragments(C, c_coords, np.float32))]
    out = dev.zeros((32, 4), np.uint32)
    Module(mma_ptx(16, "f32", "f32", "bf16"), name="mma.ptx").get_function("k")[1, 32](*bufs, out)
    assert dev.synchronize().completed
    got = unfragment(out.copy_to_host(), c_coords, np.float32, (16, 8))
    np.testing.assert_allclose(got, A.astype(np.float64) @ B + C, rtol=1e-6, atol=1e-5)


def test_mma_needs_the_whole_warp():
    text = mma_ptx(16, "f32", "f32").replace("  mma.sync", "  setp.lt.u32 %p1, %r1, 16;\n  @%p1 mma.sync").replace(
        ".reg .b32 %r<2>;", ".reg .b32 %r<2>;\n  .reg .pred %p<2>;")
    dev = Device("A100")
    bufs = [dev.zeros((32, 4), np.uint32) for _ in range(4)]
    Module(text, name="mma.ptx").get_function("k")[1, 32](*bufs)
    with pytest.raises(PtxError, match="all 32 threads of the warp"):
        dev.synchronize()


@pytest.mark.parametrize("inst,message", [
    ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%d0, %d1}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, "
     "{%c0, %c1, %c2, %c3};", "d must be a vector of 4 registers"),
    ("mma.sync.aligned.m16n8k16.row.row.f32.f16.f16.f32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, "
     "{%c0, %c1, %c2, %c3};", "row.col"),
    ("wmma.load.a.sync.aligned.row.m16n16k16.global.f32 {%a0, %a1, %a2, %a3}, [%rd1];",
     "not a multiplicand type"),
    ("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%a0}, [%r1];", "vector of 2 registers"),
    ("mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, "
     "{%b0, %b1}, {%c0, %c1, %c2, %c3};", "tf32"),
    ("mma.sync.aligned.m16n8k16.row.col.f16.bf16.bf16.f16 {%d0, %d1}, {%a0, %a1, %a2, %a3}, "
     "{%b0, %b1}, {%c0, %c1};", "accumulate in .f32"),
])
def test_malformed_tensor_instructions_are_refused(inst, message):
    text = HEAD + (".visible .entry k()\n{\n.reg .b32 %a<4>;\n.reg .b32 %b<2>;\n.reg .f32 %c<4>;\n.reg .f32 %d<4>;\n"
                   ".reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n" + inst + "\nret;\n}\n")
    with pytest.raises(PtxError, match=message):
        m = Module(text, name="bad.ptx")
        dev = Device("A100")
        m.get_function("k")[1, 32](device=dev)
        dev.synchronize()


def test_ldmatrix_before_sm75_names_the_missing_sass():
    text = LDMATRIX.format(count=1, trans="", dest="{%r2}", stores="")
    dev = Device("QV100")
    Module(text, name="ldm.ptx").get_function("k")[1, 32](dev.zeros(256, np.uint16), dev.zeros(32, np.uint32),
                                                           dev.zeros(4, np.uint32))
    with pytest.raises(PtxError, match="LDSM"):
        dev.synchronize()


def test_mma_times_on_the_tensor_unit_in_both_record_modes():
    """records="ptx" gives mma the tensor class: its ptx_latency_tensor shows
    in the kernel's cycles (a dependent store waits for it); the lowered HMMA
    ignores it."""
    rng = np.random.default_rng(5)
    A, B, C = _halves(rng, (16, 16), True), _halves(rng, (16, 8), True), _halves(rng, (16, 8), True)
    cycles = {}
    runs = [("lowered", 64), ("lowered", 640), ("ptx", 64), ("ptx", 640)]
    for records, latency in runs:
        config = accelsim.load_config("A100").with_overrides({"ptx_latency_tensor": latency})
        dev = Device(config, records=records)
        bufs = [dev.to_device(fragments(A, lambda lane: a_coords(16, lane), np.float16)),
                dev.to_device(fragments(B, lambda lane: b_coords(16, lane), np.float16)),
                dev.to_device(fragments(C.astype(np.float32), c_coords, np.float32))]
        out = dev.zeros((32, 4), np.uint32)
        Module(mma_ptx(16, "f32", "f32"), name="mma.ptx").get_function("k")[1, 32](*bufs, out)
        res = dev.synchronize()
        got = unfragment(out.copy_to_host(), c_coords, np.float32, (16, 8))
        np.testing.assert_array_equal(got, A.astype(np.float64) @ B + C)
        cycles[(records, latency)] = int(res.kernels["cycles"].iloc[0])
    assert cycles[("ptx", 640)] - cycles[("ptx", 64)] == pytest.approx(576, abs=8)
    assert cycles[("lowered", 640)] == cycles[("lowered", 64)]
