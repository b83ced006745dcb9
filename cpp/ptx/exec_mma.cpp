// Tensor-core instructions: wmma.load / wmma.store / wmma.mma (m16n16k16),
// mma.sync (m16n8k16, m16n8k8) with f16 multiplicands and f16 or f32
// accumulators (or bf16 multiplicands and f32), and ldmatrix. Each needs the whole warp (.sync.aligned).
//
// Fragment layouts: mma's and ldmatrix's are the PTX ISA's figures
// (groupID = lane / 4, threadID_in_group = lane % 4), as real programs
// shuffle those fragments by lane. The PTX ISA leaves wmma's distribution of
// elements over threads unspecified; here a wmma.m16n16k16 fragment is mma
// fragments side by side: C/D are two m16n8 accumulator fragments (columns
// 0-7 in elements 0-3, 8-15 in 4-7), B two m16n8k16 B fragments likewise,
// and A one m16n8k16 A fragment (already 16x16) whose 8 elements are
// repeated in elements 8-15, since the ISA gives A and B 8 registers (16
// halves) per thread.
//
// Arithmetic: each f16 x f16 (bf16 x bf16) product is exact in f32; the products are added
// to C in f32 in k order, and an f16 D is rounded once (to nearest even).
// Tensor cores' internal order and rounding differ in the last bits, so
// tests compare inexact results with a tolerance.
#include <algorithm>

#include "ptx/emulator.h"
#include "ptx/half.h"
#include "ptx/lane.h"

namespace accelsim::ptx {

namespace {

struct Coord {
  uint32_t row, col;
};

// The (row, col) in matrix `which` (0 A, 1 B as k x n, 2 C/D) of element i
// of lane l's fragment.
Coord frag_coord(MmaShape shape, int which, uint32_t lane, int i) {
  const uint32_t g = lane >> 2, t = lane & 3;
  if (shape == kM16n16k16) {
    if (which == 0) return frag_coord(kM16n8k16, 0, lane, i & 7);
    const int tile = which == 1 ? (i & 7) >> 2 : i >> 2;  // n8 fragment 0 or 1
    Coord c = frag_coord(kM16n8k16, which, lane, i & 3);
    c.col += 8 * uint32_t(tile);
    return c;
  }
  const uint32_t u = uint32_t(i);
  switch (which) {
    case 0: return {g + 8 * ((u >> 1) & 1), 2 * t + (u & 1) + 8 * (u >> 2)};
    case 1: return shape == kM16n8k8 ? Coord{2 * t + u, g} : Coord{2 * t + (u & 1) + 8 * (u >> 1), g};
    default: return {g + 8 * (u >> 1), 2 * t + (u & 1)};
  }
}

// Elements of one lane's fragment of `which` (distinct ones: wmma's A and B
// repeat theirs).
int frag_elements(MmaShape shape, int which) {
  if (shape == kM16n16k16) return which == 2 ? 8 : 16;
  if (which == 2) return 4;
  return (shape == kM16n8k16 ? 8 : 4) >> which;  // A 8 / 4, B 4 / 2
}

float f16_value(uint64_t bits, half::Fmt f = half::Fmt::F16) { return float(half::value(uint16_t(bits), f)); }
uint64_t f16_bits(float x) { return half::round(double(x), 0.0, half::Fmt::F16, half::Mode::Near); }

}  // namespace

// .sync.aligned: every thread of the warp executes it together.
void CtaEmulator::whole_warp(uint32_t w, const Inst& in, uint32_t mask) const {
  if (mask != 0xffffffffu)
    fault(w, uint32_t(__builtin_ctz(mask)), in,
          "needs all 32 threads of the warp (.sync.aligned), but the active mask is " + std::to_string(mask));
}

// Element i of a fragment: 16-bit elements two to a register (low half
// first), 32-bit ones one each. A sink "_" reads as 0 and takes no write.
uint64_t CtaEmulator::frag_bits(Warp& wp, const Operand& v, bool half, uint32_t l, int i) {
  const int32_t r = v.kind == Operand::kVec ? v.vec[half ? i / 2 : i] : v.reg;
  if (r < 0) return 0;
  const uint64_t x = reg(wp, r, l);
  return half ? (x >> (16 * (i & 1))) & 0xffff : x & 0xffffffffu;
}

void CtaEmulator::set_frag_bits(Warp& wp, const Operand& v, bool half, uint32_t l, int i, uint64_t bits) {
  const int32_t r = v.kind == Operand::kVec ? v.vec[half ? i / 2 : i] : v.reg;
  if (r < 0) return;
  uint64_t& x = reg(wp, r, l);
  if (!half) {
    x = bits & 0xffffffffu;
    return;
  }
  const int s = 16 * (i & 1);
  x = ((x & ~(uint64_t(0xffff) << s)) | (bits << s)) & 0xffffffffu;
}

// wmma.load.{a,b,c}.sync.aligned.{row,col}.m16n16k16{.space}.type r, [p]{, stride}
// and wmma.store.d...: element (row, col) at p + (row * stride + col) *
// size (.row) or (col * stride + row) * size (.col); stride in elements,
// 16 when absent.
void CtaEmulator::wmma_load(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  if (mask) whole_warp(w, in, mask);
  const bool load = in.op == Op::kWmmaLoad;
  const Operand& frag = in.ops[load ? 0 : 1];
  const Operand& addr = in.ops[load ? 1 : 0];
  const int which = std::min<int>(in.mma.matrix, 2);
  const bool half = in.type == kF16, col = in.mma.col & 1;
  const uint32_t n = half ? 2 : 4;
  uint8_t rec_space = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t l = uint32_t(__builtin_ctz(m));
    Space sp;
    const uint64_t base = address(wp, addr, l, in, sp);
    const uint64_t stride = in.ops.size() > 2 ? value(wp, w, in.ops[2], l) : 16;
    for (int i = 0; i < frag_elements(kM16n16k16, which); ++i) {
      const Coord c = frag_coord(kM16n16k16, which, l, i);
      const uint64_t a = base + (col ? c.col * stride + c.row : c.row * stride + c.col) * n;
      if (load) set_frag_bits(wp, frag, half, l, i, this->load(w, l, sp, a, n, in));
      else store(w, l, sp, a, n, frag_bits(wp, frag, half, l, i), in);
    }
    lane_addr_[l] = timing_address(w, l, sp, base, in);
    if (!rec_space) rec_space = record_space(sp);
  }
  record(w, int32_t(&in - P.insts.data()), mask, in, rec_space);
}

void CtaEmulator::wmma_store(uint32_t w, const Inst& in, uint32_t mask) { wmma_load(w, in, mask); }

// wmma.mma.sync.aligned.alayout.blayout.m16n16k16.dtype.ctype d, a, b, c and
// mma.sync.aligned.m16n8k{16,8}.row.col.dtype.f16.f16.ctype d, a, b, c:
// D = A * B + C. The layouts of wmma.mma say how the fragments were loaded;
// the fragments themselves are the same either way.
void CtaEmulator::mma(uint32_t w, const Inst& in, uint32_t mask) {
  if (!mask) return;
  whole_warp(w, in, mask);
  Warp& wp = warps_[w];
  const MmaShape s = MmaShape(in.mma.shape);
  const uint32_t M = 16, N = s == kM16n16k16 ? 16 : 8, K = s == kM16n8k8 ? 8 : 16;
  float A[16][16] = {}, B[16][16] = {}, C[16][16] = {};
  const bool c_half = in.type == kF16, d_half = in.type2 == kF16;
  const half::Fmt ab = in.mma.bf16 ? half::Fmt::BF16 : half::Fmt::F16;
  for (uint32_t l = 0; l < 32; ++l) {
    for (int i = 0; i < frag_elements(s, 0); ++i) {
      const Coord c = frag_coord(s, 0, l, i);
      A[c.row][c.col] = f16_value(frag_bits(wp, in.ops[1], true, l, i), ab);
    }
    for (int i = 0; i < frag_elements(s, 1); ++i) {
      const Coord c = frag_coord(s, 1, l, i);
      B[c.row][c.col] = f16_value(frag_bits(wp, in.ops[2], true, l, i), ab);
    }
    for (int i = 0; i < frag_elements(s, 2); ++i) {
      const Coord c = frag_coord(s, 2, l, i);
      const uint64_t b = frag_bits(wp, in.ops[3], c_half, l, i);
      C[c.row][c.col] = c_half ? f16_value(b) : as<float>(b);
    }
  }
  for (uint32_t r = 0; r < M; ++r)
    for (uint32_t c = 0; c < N; ++c) {
      float acc = C[r][c];
      for (uint32_t k = 0; k < K; ++k) acc += A[r][k] * B[k][c];
      C[r][c] = acc;
    }
  for (uint32_t l = 0; l < 32; ++l)
    for (int i = 0; i < frag_elements(s, 2); ++i) {
      const Coord c = frag_coord(s, 2, l, i);
      set_frag_bits(wp, in.ops[0], d_half, l, i, d_half ? f16_bits(C[c.row][c.col]) : bits<float>(C[c.row][c.col]));
    }
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
        set_frag_bits(wp, in.ops[0], true, l, 2 * j + int(e), load(w, src, sp[src], row[src] + 2 * c, 2, in));
      }
    lane_addr_[l] = timing_address(w, l % rows, sp[l % rows], row[l % rows], in);
  }
  record(w, int32_t(&in - P.insts.data()), mask, in, isa::kMemShared);
}

}  // namespace accelsim::ptx
