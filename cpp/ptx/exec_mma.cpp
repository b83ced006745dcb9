// Tensor-core instructions: wmma.load / wmma.store / wmma.mma (m16n16k16,
// m16n16k8, m32n8k16, m8n32k16, m8n8k4 f64), mma.sync (m16n8k4 to m16n8k64,
// m8n8k4 to m8n8k32) with f16, bf16, tf32, f64, s8, u8, s4 and u4
// multiplicands, and ldmatrix / stmatrix. Each needs the whole warp
// (.sync.aligned). Fragment layouts: ptx/mma_fragment.h.
//
// Arithmetic: each f16, bf16 or tf32 product is exact in f32 (tf32: the
// multiplicands' low 13 mantissa bits ignored, as the PTX ISA specifies);
// the products are added to C in f32 in k order, and an f16 D is rounded
// once (to nearest even). Tensor cores' internal order and rounding differ in
// the last bits, so tests compare inexact results with a tolerance. f64 is a
// chain of fused multiply-adds onto C in k order (IEEE round to nearest, as
// the .rn form says). Integer products are added exactly; D wraps to 32
// bits, or with .satfinite clamps to the .s32 range.
#include <algorithm>
#include <cmath>

#include "ptx/emulator.h"
#include "ptx/half.h"
#include "ptx/lane.h"
#include "ptx/mma_fragment.h"

namespace accelsim::ptx {

namespace {

bool is_int(Ty t) { return t == kS8 || t == kU8 || t == kS4 || t == kU4; }

// The value of a fragment element of type t, exact in a double.
double element_value(uint64_t bits, Ty t) {
  switch (t) {
    case kF64: return as<double>(bits);
    case kS4: return double(int32_t(uint32_t(bits) << 28) >> 28);
    case kU4: return double(bits & 0xf);
    case kF16: return double(half::value(uint16_t(bits), half::Fmt::F16));
    case kBF16: return double(half::value(uint16_t(bits), half::Fmt::BF16));
    case kTF32: return double(as<float>(bits & 0xffffe000u));
    case kS8: return double(int8_t(bits));
    case kU8: return double(uint8_t(bits));
    case kS32: return double(int32_t(uint32_t(bits)));
    default: return double(as<float>(bits));
  }
}

uint64_t element_bits(double v, Ty t) {
  if (t == kF16) return half::round(v, 0.0, half::Fmt::F16, half::Mode::Near);
  if (t == kS32) return uint32_t(int32_t(int64_t(v)));
  if (t == kF64) return bits<double>(v);
  return bits<float>(float(v));
}

// One mma's matrices: A (M x K), B (K x N), C then D (M x N); the largest
// are m32n8k16's A and C, m8n32k16's B, m16n8k64's A and B, and the quad-pair
// form's stacked four (A 32 x 4, B 4 x 32, C 32 x 8).
struct Tiles {
  double a[32][64], b[64][32], c[32][32];
  double& at(int which, Coord x) { return which == 0 ? a[x.row][x.col] : which == 1 ? b[x.row][x.col] : c[x.row][x.col]; }
};

// The product's loops: M x N results of K terms; the quad-pair form's row r
// meets B's columns 8 (r / 8) on.
struct Loops {
  uint32_t m, n, k;
  bool quad;
  uint32_t bcol(uint32_t r, uint32_t c) const { return quad ? 8 * (r / 8) + c : c; }
};

Loops loops_of(MmaShape s, Ty ab) {
  const MmaDims d = mma_dims(s);
  return quad_pair(s, ab) ? Loops{32, 8, 4, true} : Loops{d.m, d.n, d.k, false};
}

// D = A B + C in place of C: floats in f32 in k order (each product exact).
void multiply_float(Tiles& t, const Loops& d) {
  for (uint32_t r = 0; r < d.m; ++r)
    for (uint32_t c = 0; c < d.n; ++c) {
      float acc = float(t.c[r][c]);
      for (uint32_t k = 0; k < d.k; ++k) acc += float(t.a[r][k] * t.b[k][d.bcol(r, c)]);
      t.c[r][c] = double(acc);
    }
}

// f64: fused multiply-adds onto C in k order.
void multiply_f64(Tiles& t, const Loops& d) {
  for (uint32_t r = 0; r < d.m; ++r)
    for (uint32_t c = 0; c < d.n; ++c) {
      double acc = t.c[r][c];
      for (uint32_t k = 0; k < d.k; ++k) acc = std::fma(t.a[r][k], t.b[k][c], acc);
      t.c[r][c] = acc;
    }
}

// Integers exactly; the .s32 result wraps, or saturates with .satfinite.
void multiply_int(Tiles& t, const Loops& d, bool satfinite) {
  for (uint32_t r = 0; r < d.m; ++r)
    for (uint32_t c = 0; c < d.n; ++c) {
      int64_t acc = int64_t(t.c[r][c]);
      for (uint32_t k = 0; k < d.k; ++k) acc += int64_t(t.a[r][k]) * int64_t(t.b[k][c]);
      t.c[r][c] = satfinite ? double(std::clamp<int64_t>(acc, INT32_MIN, INT32_MAX)) : double(int32_t(uint32_t(acc)));
    }
}

}  // namespace

// .sync.aligned: every thread of the warp executes it together.
void CtaEmulator::whole_warp(uint32_t w, const Inst& in, uint32_t mask) const {
  if (mask != 0xffffffffu)
    fault(w, uint32_t(__builtin_ctz(mask)), in,
          "needs all 32 threads of the warp (.sync.aligned), but the active mask is " + std::to_string(mask));
}

// Element i of a fragment whose elements are `width` bits wide: 32 / width
// to a 32-bit register, the lowest first; a 64-bit element is a whole
// register. A sink "_" reads as 0 and takes no write.
uint64_t CtaEmulator::frag_bits(Warp& wp, const Operand& v, uint32_t width, uint32_t l, int i) {
  const uint32_t per = width >= 32 ? 1 : 32 / width, shift = width * (uint32_t(i) % per);
  const int32_t r = v.kind == Operand::kVec ? v.vec[uint32_t(i) / per] : v.reg;
  if (r < 0) return 0;
  return width == 64 ? reg(wp, r, l) : (reg(wp, r, l) >> shift) & (0xffffffffu >> (32 - width));
}

void CtaEmulator::set_frag_bits(Warp& wp, const Operand& v, uint32_t width, uint32_t l, int i, uint64_t bits) {
  const uint32_t per = width >= 32 ? 1 : 32 / width, shift = width * (uint32_t(i) % per);
  const int32_t r = v.kind == Operand::kVec ? v.vec[uint32_t(i) / per] : v.reg;
  if (r < 0) return;
  uint64_t& x = reg(wp, r, l);
  if (width == 64) {
    x = bits;
    return;
  }
  const uint64_t field = uint64_t(0xffffffffu >> (32 - width)) << shift;
  x = ((x & ~field) | ((bits << shift) & field)) & 0xffffffffu;
}

// wmma.load.{a,b,c}.sync.aligned.{row,col}.shape{.space}.type r, [p]{, stride}
// and wmma.store.d...: element (row, col) at p + (row * stride + col) *
// size (.row) or (col * stride + row) * size (.col); stride in elements,
// when absent the matrix's own row (.row) or column (.col) length, as if
// stored whole. Every register of the fragment is written (wmma's f16 A and
// B repeat their elements).
void CtaEmulator::wmma_load(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  if (mask) whole_warp(w, in, mask);
  const bool load = in.op == Op::kWmmaLoad;
  const Operand& frag = in.ops[load ? 0 : 1];
  const Operand& addr = in.ops[load ? 1 : 0];
  const MmaShape s = MmaShape(in.mma.shape);
  const int which = std::min<int>(in.mma.matrix, 2);
  const bool col = in.mma.col & 1;
  const uint32_t width = frag_elem_bits(in.type), n = width / 8;
  const int elements = frag_elements(s, which, in.type);
  const int slots = load ? std::max(elements, frag_regs(s, which, in.type) * int(32 / std::min(width, 32u))) : elements;
  const MmaDims d = mma_dims(s);  // A M x K, B K x N, C/D M x N
  const uint32_t rows = which == 1 ? d.k : d.m, cols = which == 0 ? d.k : d.n, whole = col ? rows : cols;
  uint8_t rec_space = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t l = uint32_t(__builtin_ctz(m));
    Space sp;
    const uint64_t base = address(wp, addr, l, in, sp);
    const uint64_t stride = in.ops.size() > 2 ? value(wp, w, in.ops[2], l) : whole;
    for (int i = 0; i < slots; ++i) {
      const Coord c = frag_coord(s, which, in.type, l, i);
      const uint64_t a = base + (col ? c.col * stride + c.row : c.row * stride + c.col) * n;
      if (load) set_frag_bits(wp, frag, width, l, i, this->load(w, l, sp, a, n, in));
      else store(w, l, sp, a, n, frag_bits(wp, frag, width, l, i), in);
    }
    lane_addr_[l] = timing_address(w, l, sp, base, in);
    if (!rec_space) rec_space = record_space(sp);
  }
  record(w, int32_t(&in - P.insts.data()), mask, in, rec_space);
}

void CtaEmulator::wmma_store(uint32_t w, const Inst& in, uint32_t mask) { wmma_load(w, in, mask); }

// wmma.mma.sync.aligned.alayout.blayout.shape.dtype{.atype.btype}.ctype and
// mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype
// d, a, b, c: D = A * B + C. The layouts of wmma.mma say how the fragments
// were loaded; the fragments themselves are the same either way.
void CtaEmulator::mma(uint32_t w, const Inst& in, uint32_t mask) {
  if (!mask) return;
  whole_warp(w, in, mask);
  Warp& wp = warps_[w];
  const MmaShape s = MmaShape(in.mma.shape);
  Tiles t;
  const Ty types[3] = {in.mma.atype, in.mma.btype, in.type};
  for (int which = 0; which < 3; ++which) {
    const bool col = which < 2 && ((in.mma.col >> which) & 1);
    for (uint32_t l = 0; l < 32; ++l)
      for (int i = 0; i < frag_elements(s, which, types[which]); ++i) {
        const uint64_t b = frag_bits(wp, in.ops[size_t(1 + which)], frag_elem_bits(types[which]), l, i);
        t.at(which, frag_coord(s, which, types[which], l, i, col)) = element_value(b, types[which]);
      }
  }
  const Loops loops = loops_of(s, in.mma.atype);
  if (is_int(in.mma.atype)) multiply_int(t, loops, in.mma.satfinite);
  else if (in.mma.atype == kF64) multiply_f64(t, loops);
  else multiply_float(t, loops);
  const Ty dt = in.type2;
  for (uint32_t l = 0; l < 32; ++l)
    for (int i = 0; i < frag_elements(s, 2, dt); ++i)
      set_frag_bits(wp, in.ops[0], frag_elem_bits(dt), l, i, element_bits(t.at(2, frag_coord(s, 2, dt, l, i)), dt));
}

// ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16 d, [p]: matrix j's
// eight rows (16 bytes each, 16-byte aligned) start at the addresses lanes
// 8j..8j+7 give; lane l receives row l / 4, columns 2 (l % 4) and +1 of each
// matrix in its register j (with .trans: column l / 4, rows 2 (l % 4), +1).
// stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16 [p], r stores the
// same fragment back to such rows.
void CtaEmulator::ldmatrix(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  if (mask) whole_warp(w, in, mask);
  const bool load = in.op == Op::kLdmatrix;
  const Operand& frag = in.ops[load ? 0 : 1];
  const Operand& addr = in.ops[load ? 1 : 0];
  const uint32_t rows = 8 * in.mma.count;
  std::array<uint64_t, 32> row{};
  std::array<Space, 32> sp{};
  for (uint32_t l = 0; l < rows && mask; ++l) {
    row[l] = address(wp, addr, l, in, sp[l]);
    if (row[l] % 16) fault(w, l, in, std::string(load ? "ldmatrix" : "stmatrix") + " row address " + std::to_string(row[l]) + " is not 16-byte aligned");
  }
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t l = uint32_t(__builtin_ctz(m));
    for (int j = 0; j < in.mma.count; ++j)
      for (uint32_t e = 0; e < 2; ++e) {
        const uint32_t r = in.mma.trans ? 2 * (l & 3) + e : l >> 2, c = in.mma.trans ? l >> 2 : 2 * (l & 3) + e;
        const uint32_t src = 8 * uint32_t(j) + r;
        const int i = 2 * j + int(e);
        if (load) set_frag_bits(wp, frag, 16, l, i, this->load(w, src, sp[src], row[src] + 2 * c, 2, in));
        else store(w, src, sp[src], row[src] + 2 * c, 2, frag_bits(wp, frag, 16, l, i), in);
      }
    lane_addr_[l] = timing_address(w, l % rows, sp[l % rows], row[l % rows], in);
  }
  record(w, int32_t(&in - P.insts.data()), mask, in, isa::kMemShared);
}

void CtaEmulator::stmatrix(uint32_t w, const Inst& in, uint32_t mask) { ldmatrix(w, in, mask); }

}  // namespace accelsim::ptx
