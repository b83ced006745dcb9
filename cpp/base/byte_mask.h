// A 128-bit byte mask: which bytes of a (up to) 128 B line an access touches.
// Trivially copyable, so requests carrying it stay PODs.
#pragma once
#include <bit>
#include <cstdint>

namespace accelsim {

struct ByteMask {
  static constexpr unsigned kBits = 128;
  uint64_t w[2] = {0, 0};

  // Sets bytes [first, first+count) (clipped to 128).
  void set_range(unsigned first, unsigned count) {
    for (unsigned b = first; b < first + count && b < kBits; ++b) w[b >> 6] |= uint64_t{1} << (b & 63);
  }
  static ByteMask range(unsigned first, unsigned count) {
    ByteMask m;
    m.set_range(first, count);
    return m;
  }
  bool test(unsigned b) const { return (w[b >> 6] >> (b & 63)) & 1; }
  unsigned count() const { return std::popcount(w[0]) + std::popcount(w[1]); }
  bool none() const { return (w[0] | w[1]) == 0; }
  // True when every byte of [first, first+count) is set.
  bool covers(unsigned first, unsigned count) const {
    ByteMask r = range(first, count);
    return (w[0] & r.w[0]) == r.w[0] && (w[1] & r.w[1]) == r.w[1];
  }
  ByteMask operator&(const ByteMask& o) const { return {{w[0] & o.w[0], w[1] & o.w[1]}}; }
  ByteMask operator|(const ByteMask& o) const { return {{w[0] | o.w[0], w[1] | o.w[1]}}; }
  ByteMask& operator|=(const ByteMask& o) {
    w[0] |= o.w[0];
    w[1] |= o.w[1];
    return *this;
  }
  bool operator==(const ByteMask&) const = default;
};

}  // namespace accelsim
