// Tensor-core fragments: the matrix sizes of each mma / wmma shape, how many
// elements and registers one lane holds, and which (row, col) each element
// is. The parser sizes the vector operands with these, the emulator moves
// elements with them.
//
// mma's layouts are the PTX ISA's figures (groupID g = lane / 4,
// threadID_in_group t = lane % 4). They share one rule for every element
// type: a 32-bit register holds p = 32 / bits elements (e = 0, 1, ...; an
// f64 element takes a whole 64-bit register, p = 1); A's (M x K) register j
// is row g + 8 (j & 1), column p t + e + K/2 (j >> 1) at M = 16, row g,
// column p t + e + K/2 j at M = 8; B's (K x N) register j is row p t + e +
// K/2 j, column g; C/D's element i is row g + 8 (i >> 1) (g at M = 8),
// column 2 t + (i & 1).
//
// The one exception is mma.m8n8k4 with f16 multiplicands (Volta's form):
// the warp computes four independent 8x8x4 products, one per quad pair
// (lanes 4q..4q+3 and 16+4q..16+4q+3); each quad pair's fragments are laid
// out by A's and B's .row / .col. Here they are one stacked product: A 32 x
// 4 (quad pair q's rows at 8q), B 4 x 32 (its columns at 8q), C/D 32 x 8.
//
// The PTX ISA leaves wmma's distribution unspecified; here a wmma fragment is
// mma fragments tiled: A is (M / 16) m16 A fragments stacked (one m8 at M =
// 8), B N / 8 B fragments side by side, C/D the accumulator fragments row
// by row of tiles (m16n16: columns 0-7 in elements 0-3, 8-15 in 4-7). The
// ISA gives wmma's f16 A and B 8 registers whatever the shape: the
// elements repeat to fill them.
#pragma once
#include <cstdint>

#include "ptx/module.h"

namespace accelsim::ptx {

struct MmaDims {
  uint32_t m, n, k;
};

inline MmaDims mma_dims(MmaShape s) {
  switch (s) {
    case kM16n16k16: return {16, 16, 16};
    case kM16n16k8: return {16, 16, 8};
    case kM32n8k16: return {32, 8, 16};
    case kM8n32k16: return {8, 32, 16};
    case kM16n8k64: return {16, 8, 64};
    case kM16n8k32: return {16, 8, 32};
    case kM16n8k16: return {16, 8, 16};
    case kM16n8k8: return {16, 8, 8};
    case kM16n8k4: return {16, 8, 4};
    case kM8n8k32: return {8, 8, 32};
    case kM8n8k16: return {8, 8, 16};
    case kM8n8k4: return {8, 8, 4};
    default: return {8, 8, 0};
  }
}

inline bool is_wmma_shape(MmaShape s) { return s == kM16n16k16 || s == kM16n16k8 || s == kM32n8k16 || s == kM8n32k16; }

// Bits of one fragment element (tf32 takes a whole register, s4 / u4 a
// nibble; ty_bytes leaves them out, as no other instruction has such an
// operand).
inline uint32_t frag_elem_bits(Ty t) {
  if (t == kTF32) return 32;
  if (t == kS4 || t == kU4) return 4;
  return 8 * uint32_t(ty_bytes(t));
}

// mma.m8n8k4 with f16 (not f64) elements: four quad pairs' products.
inline bool quad_pair(MmaShape s, Ty t) { return s == kM8n8k4 && t != kF64; }

// Distinct elements of one lane's fragment of matrix `which` (0 A, 1 B, 2
// C/D) whose elements are of type t.
inline int frag_elements(MmaShape s, int which, Ty t) {
  if (quad_pair(s, t)) return which == 2 ? 8 : 4;
  const MmaDims d = mma_dims(s);
  return int((which == 0 ? d.m * d.k : which == 1 ? d.k * d.n : d.m * d.n) / 32);
}

// Registers of that fragment (wmma's f16 A and B: always 8, the elements
// repeated; an f64 element is one 64-bit register).
inline int frag_regs(MmaShape s, int which, Ty t) {
  if (t == kF16 && which < 2 && is_wmma_shape(s)) return 8;
  const uint32_t bits = frag_elem_bits(t);
  const int n = frag_elements(s, which, t);
  return bits >= 32 ? n : n * int(bits) / 32;
}

struct Coord {
  uint32_t row, col;
};

namespace detail {

// Quad pair q = (lane / 4) % 4 in rows (A, C/D) or columns (B) 8q..8q+7.
inline Coord quad_pair_coord(int which, Ty t, uint32_t lane, uint32_t i, bool col_major) {
  const uint32_t q = (lane >> 2) & 3, tg = lane & 3, hi = lane >= 16 ? 4 : 0;
  if (which == 0) return col_major ? Coord{8 * q + i + hi, tg} : Coord{8 * q + tg + hi, i};
  if (which == 1) return col_major ? Coord{i, 8 * q + tg + hi} : Coord{tg, 8 * q + i + hi};
  if (t == kF16) return {8 * q + tg + hi, i};
  return {8 * q + (tg & 1) + (i & 2) + hi, (tg & 2) + (i & 1) + (i & 4)};
}

// One mma fragment (M = 8 or 16, N = 8) of a K-deep product.
inline Coord mma_coord(uint32_t m, uint32_t k, int which, uint32_t bits, uint32_t lane, uint32_t u) {
  const uint32_t g = lane >> 2, tg = lane & 3;
  if (which == 2) return {g + (m == 16 ? 8 * (u >> 1) : 0), 2 * tg + (u & 1)};
  const uint32_t per = bits >= 32 ? 1 : 32 / bits, j = u / per, e = u % per, half_k = k / 2;
  if (which == 1) return {per * tg + e + half_k * j, g};
  if (m == 8) return {g, per * tg + e + half_k * j};
  return {g + 8 * (j & 1), per * tg + e + half_k * (j >> 1)};
}

}  // namespace detail

// (row, col) of element i of lane `lane`'s fragment of `which` (B as K x N)
// whose elements are of type t; col_major: that matrix's layout is .col
// (only the quad-pair form's layout depends on it).
inline Coord frag_coord(MmaShape s, int which, Ty t, uint32_t lane, int i, bool col_major = false) {
  const uint32_t u = uint32_t(i % frag_elements(s, which, t));
  if (quad_pair(s, t)) return detail::quad_pair_coord(which, t, lane, u, col_major);
  const MmaDims d = mma_dims(s);
  const uint32_t mb = d.m < 16 ? d.m : 16;  // the tiles' M
  const uint32_t per_tile = (which == 0 ? mb * d.k : which == 1 ? d.k * 8 : mb * 8) / 32, q = u / per_tile;
  Coord c = detail::mma_coord(mb, d.k, which, frag_elem_bits(t), lane, u % per_tile);
  if (which == 0) c.row += mb * q;
  if (which == 1) c.col += 8 * q;
  if (which == 2) c.row += mb * (q / (d.n / 8)), c.col += 8 * (q % (d.n / 8));
  return c;
}

}  // namespace accelsim::ptx
