// Tensor-core fragments: the matrix sizes of each mma / wmma shape, how many
// elements and registers one lane holds, and which (row, col) each element
// is. The parser sizes the vector operands with these, the emulator moves
// elements with them.
//
// mma's layouts are the PTX ISA's figures (groupID g = lane / 4,
// threadID_in_group t = lane % 4). They share one rule for every element
// type: a register holds 4 / bytes elements (e = 0, 1, ...); A's register j
// is row g + 8 (j & 1), column (4 / bytes) t + e + K/2 (j >> 1); B's (K x N)
// register j is row (4 / bytes) t + e + K/2 j, column g; C/D's element i is
// row g + 8 (i >> 1), column 2 t + (i & 1).
//
// The PTX ISA leaves wmma's distribution unspecified; here a wmma
// m16n16kK fragment is mma m16n8kK fragments side by side: A is one
// (already 16 x K), B two (columns 0-7 in its first half of elements, 8-15
// in the second), C/D two m16n8 accumulator fragments likewise. The ISA
// gives wmma's f16 A and B 8 registers, twice the elements: the second four
// repeat the first.
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
    case kM16n8k32: return {16, 8, 32};
    case kM16n8k16: return {16, 8, 16};
    case kM16n8k8: return {16, 8, 8};
    case kM16n8k4: return {16, 8, 4};
    default: return {8, 8, 0};
  }
}

// Bytes of one fragment element (tf32 takes a whole register; ty_bytes
// leaves it out, as no other instruction has a tf32 operand).
inline uint32_t frag_bytes(Ty t) { return t == kTF32 ? 4 : uint32_t(ty_bytes(t)); }

// Distinct elements of one lane's fragment of matrix `which` (0 A, 1 B, 2 C/D).
inline int frag_elements(MmaShape s, int which) {
  const MmaDims d = mma_dims(s);
  return int((which == 0 ? d.m * d.k : which == 1 ? d.k * d.n : d.m * d.n) / 32);
}

// 32-bit registers of that fragment for elements of type t (wmma's f16 A
// and B: twice as many, the elements repeated).
inline int frag_regs(MmaShape s, int which, Ty t) {
  const int regs = frag_elements(s, which) * int(frag_bytes(t)) / 4;
  return t == kF16 && which < 2 && mma_dims(s).n == 16 ? 2 * regs : regs;
}


struct Coord {
  uint32_t row, col;
};

// (row, col) of element i of lane `lane`'s fragment of `which` (B as K x N)
// whose elements are of type t.
inline Coord frag_coord(MmaShape s, int which, Ty t, uint32_t lane, int i) {
  const MmaDims d = mma_dims(s);
  const uint32_t u = uint32_t(i % frag_elements(s, which));
  if (d.n == 16) {  // wmma: m16n8 fragments side by side
    const MmaShape part = d.k == 8 ? kM16n8k8 : kM16n8k16;
    if (which == 0) return frag_coord(part, 0, t, lane, int(u));
    const uint32_t per = uint32_t(frag_elements(part, which));
    Coord c = frag_coord(part, which, t, lane, int(u % per));
    c.col += 8 * (u / per);
    return c;
  }
  const uint32_t g = lane >> 2, tg = lane & 3;
  if (which == 2) return {g + 8 * (u >> 1), 2 * tg + (u & 1)};
  const uint32_t per_reg = 4 / frag_bytes(t), j = u / per_reg, e = u % per_reg, half_k = d.k / 2;
  if (which == 0) return {g + 8 * (j & 1), per_reg * tg + e + half_k * (j >> 1)};
  return {per_reg * tg + e + half_k * j, g};
}

}  // namespace accelsim::ptx
