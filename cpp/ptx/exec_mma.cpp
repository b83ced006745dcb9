// Tensor-core instructions: wmma.load / wmma.store / wmma.mma (m16n16k16,
// m16n16k8), mma.sync (m16n8k4 to m16n8k32) with f16, bf16, tf32, s8 and u8
// multiplicands, and ldmatrix. Each needs the whole warp (.sync.aligned).
// Fragment layouts: ptx/mma_fragment.h.
//
// Arithmetic: each f16, bf16 or tf32 product is exact in f32 (tf32: the
// multiplicands' low 13 mantissa bits ignored, as the PTX ISA specifies);
// the products are added to C in f32 in k order, and an f16 D is rounded
// once (to nearest even). Tensor cores' internal order and rounding differ in
// the last bits, so tests compare inexact results with a tolerance. Integer
// products are added exactly; D wraps to 32 bits, or with .satfinite clamps
// to the .s32 range.
#include <algorithm>

#include "ptx/emulator.h"
#include "ptx/half.h"
#include "ptx/lane.h"
#include "ptx/mma_fragment.h"

namespace accelsim::ptx {

namespace {

bool is_int8(Ty t) { return t == kS8 || t == kU8; }

// The value of a fragment element of type t, exact in a double.
double element_value(uint64_t bits, Ty t) {
  switch (t) {
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
  return bits<float>(float(v));
}

// One mma's matrices: A (M x K), B (K x N), C then D (M x N).
struct Tiles {
  double a[16][32], b[32][16], c[16][16];
  double& at(int which, Coord x) { return which == 0 ? a[x.row][x.col] : which == 1 ? b[x.row][x.col] : c[x.row][x.col]; }
};

// D = A B + C in place of C: floats in f32 in k order (each product exact).
void multiply_float(Tiles& t, MmaDims d) {
  for (uint32_t r = 0; r < d.m; ++r)
    for (uint32_t c = 0; c < d.n; ++c) {
      float acc = float(t.c[r][c]);
      for (uint32_t k = 0; k < d.k; ++k) acc += float(t.a[r][k] * t.b[k][c]);
      t.c[r][c] = double(acc);
    }
}

// Integers exactly; the .s32 result wraps, or saturates with .satfinite.
void multiply_int(Tiles& t, MmaDims d, bool satfinite) {
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

// Element i of a fragment whose elements are `bytes` wide: 4 / bytes to a
// register, the lowest first. A sink "_" reads as 0 and takes no write.
uint64_t CtaEmulator::frag_bits(Warp& wp, const Operand& v, uint32_t bytes, uint32_t l, int i) {
  const uint32_t per = 4 / bytes, shift = 8 * bytes * (uint32_t(i) % per);
  const int32_t r = v.kind == Operand::kVec ? v.vec[uint32_t(i) / per] : v.reg;
  if (r < 0) return 0;
  return (reg(wp, r, l) >> shift) & (0xffffffffu >> (32 - 8 * bytes));
}

void CtaEmulator::set_frag_bits(Warp& wp, const Operand& v, uint32_t bytes, uint32_t l, int i, uint64_t bits) {
  const uint32_t per = 4 / bytes, shift = 8 * bytes * (uint32_t(i) % per);
  const int32_t r = v.kind == Operand::kVec ? v.vec[uint32_t(i) / per] : v.reg;
  if (r < 0) return;
  const uint64_t field = uint64_t(0xffffffffu >> (32 - 8 * bytes)) << shift;
  uint64_t& x = reg(wp, r, l);
  x = ((x & ~field) | ((bits << shift) & field)) & 0xffffffffu;
}

// wmma.load.{a,b,c}.sync.aligned.{row,col}.shape{.space}.type r, [p]{, stride}
// and wmma.store.d...: element (row, col) at p + (row * stride + col) *
// size (.row) or (col * stride + row) * size (.col); stride in elements,
// 16 when absent. Every register of the fragment is written (wmma's f16 A
// and B repeat their elements).
void CtaEmulator::wmma_load(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  if (mask) whole_warp(w, in, mask);
  const bool load = in.op == Op::kWmmaLoad;
  const Operand& frag = in.ops[load ? 0 : 1];
  const Operand& addr = in.ops[load ? 1 : 0];
  const MmaShape s = MmaShape(in.mma.shape);
  const int which = std::min<int>(in.mma.matrix, 2);
  const bool col = in.mma.col & 1;
  const uint32_t n = frag_bytes(in.type);
  const int slots = load ? frag_regs(s, which, in.type) * int(4 / n) : frag_elements(s, which);
  uint8_t rec_space = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t l = uint32_t(__builtin_ctz(m));
    Space sp;
    const uint64_t base = address(wp, addr, l, in, sp);
    const uint64_t stride = in.ops.size() > 2 ? value(wp, w, in.ops[2], l) : 16;
    for (int i = 0; i < slots; ++i) {
      const Coord c = frag_coord(s, which, in.type, l, i);
      const uint64_t a = base + (col ? c.col * stride + c.row : c.row * stride + c.col) * n;
      if (load) set_frag_bits(wp, frag, n, l, i, this->load(w, l, sp, a, n, in));
      else store(w, l, sp, a, n, frag_bits(wp, frag, n, l, i), in);
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
  for (int which = 0; which < 3; ++which)
    for (uint32_t l = 0; l < 32; ++l)
      for (int i = 0; i < frag_elements(s, which); ++i) {
        const uint64_t b = frag_bits(wp, in.ops[size_t(1 + which)], frag_bytes(types[which]), l, i);
        t.at(which, frag_coord(s, which, types[which], l, i)) = element_value(b, types[which]);
      }
  if (is_int8(in.mma.atype)) multiply_int(t, mma_dims(s), in.mma.satfinite);
  else multiply_float(t, mma_dims(s));
  const Ty dt = in.type2;
  for (uint32_t l = 0; l < 32; ++l)
    for (int i = 0; i < frag_elements(s, 2); ++i)
      set_frag_bits(wp, in.ops[0], frag_bytes(dt), l, i, element_bits(t.at(2, frag_coord(s, 2, dt, l, i)), dt));
}

// ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16 d, [p]: matrix j's
// eight rows (16 bytes each, 16-byte aligned) start at the addresses lanes
// 8j..8j+7 give; lane l receives row l / 4, columns 2 (l % 4) and +1 of each
// matrix in its register j (with .trans: column l / 4, rows 2 (l % 4), +1).
void CtaEmulator::ldmatrix(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  if (mask) whole_warp(w, in, mask);
  const uint32_t rows = 8 * in.mma.count;
  std::array<uint64_t, 32> row{};
  std::array<Space, 32> sp{};
  for (uint32_t l = 0; l < rows && mask; ++l) {
    row[l] = address(wp, in.ops[1], l, in, sp[l]);
    if (row[l] % 16) fault(w, l, in, "ldmatrix row address " + std::to_string(row[l]) + " is not 16-byte aligned");
  }
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t l = uint32_t(__builtin_ctz(m));
    for (int j = 0; j < in.mma.count; ++j)
      for (uint32_t e = 0; e < 2; ++e) {
        const uint32_t r = in.mma.trans ? 2 * (l & 3) + e : l >> 2, c = in.mma.trans ? l >> 2 : 2 * (l & 3) + e;
        const uint32_t src = 8 * uint32_t(j) + r;
        set_frag_bits(wp, in.ops[0], 2, l, 2 * j + int(e), load(w, src, sp[src], row[src] + 2 * c, 2, in));
      }
    lane_addr_[l] = timing_address(w, l % rows, sp[l % rows], row[l % rows], in);
  }
  record(w, int32_t(&in - P.insts.data()), mask, in, isa::kMemShared);
}

}  // namespace accelsim::ptx
