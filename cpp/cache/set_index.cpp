#include "cache/set_index.h"

#include <bit>

#include "base/named_registry.h"

namespace accelsim::cache {
namespace {

uint32_t linear_index(uint64_t n, const SetIndexParams& p) {
  return p.pow2 ? static_cast<uint32_t>(n & (p.sets - 1)) : static_cast<uint32_t>(n % p.sets);
}

// Folds the bits above the index onto it, so power-of-two strides that
// share the low bits spread over sets.
uint32_t xor_index(uint64_t n, const SetIndexParams& p) {
  uint64_t mask = p.sets - 1;
  return static_cast<uint32_t>((n ^ (n >> p.set_bits)) & mask);
}

// Primitive (hence irreducible) polynomials over GF(2) by degree, x^d term included.
constexpr uint32_t kPoly[] = {0x1,    0x3,    0x7,    0xB,    0x13,   0x25,   0x43,
                              0x89,   0x11D,  0x211,  0x409,  0x805,  0x1053, 0x201B,
                              0x4443, 0x8003, 0x1100B};

// IPOLY: the line number, read as a polynomial over GF(2), modulo an
// irreducible polynomial of degree set_bits. Conflict-free for every
// power-of-two stride, which is why L2 slices use it.
uint32_t ipoly_index(uint64_t n, const SetIndexParams& p) {
  const uint32_t d = p.set_bits;
  if (d == 0) return 0;
  const uint64_t poly = kPoly[d];
  // Clear the highest set bit at or above degree d until none is left.
  while (n >> d) {
    const int bit = 63 - std::countl_zero(n);
    n ^= poly << (bit - d);
  }
  return static_cast<uint32_t>(n);
}

constexpr SetIndexFunction kFunctions[] = {
    {"linear", "line number modulo the set count", false, &linear_index},
    {"xor", "low index bits XOR the next set_bits bits", true, &xor_index},
    {"ipoly", "line number modulo an irreducible polynomial over GF(2)", true, &ipoly_index},
};

}  // namespace

constexpr uint32_t kMaxIpolyBits = sizeof(kPoly) / sizeof(kPoly[0]) - 1;

std::span<const SetIndexFunction> set_index_functions() { return kFunctions; }

const SetIndexFunction& find_set_index(std::string_view name) {
  return find_by_name(set_index_functions(), name, "set_index");
}

uint32_t max_hashed_set_bits() { return kMaxIpolyBits; }

}  // namespace accelsim::cache
