// A 128-bit byte mask: which bytes of a (up to) 128 B line an access touches.
// Trivially copyable, so requests carrying it stay PODs.
#pragma once
#include <bit>
#include <cstdint>

#include "base/bit_count.h"

namespace accelsim {

struct ByteMask {
  static constexpr unsigned kBits = 128;
  uint64_t w[2] = {0, 0};

  // Bytes [first, first+count), clipped to 128.
  static ByteMask range(unsigned first, unsigned count) {
    ByteMask m;
    unsigned end = first + count > kBits ? kBits : first + count;
    for (unsigned i = 0; i < 2; ++i) {
      unsigned lo = i * 64, hi = lo + 64;
      unsigned a = first > lo ? first : lo, b = end < hi ? end : hi;
      if (a < b) m.w[i] = word_bits(a - lo, b - a);
    }
    return m;
  }
  void set_range(unsigned first, unsigned count) { *this |= range(first, count); }
  bool test(unsigned b) const { return (w[b >> 6] >> (b & 63)) & 1; }
  unsigned count() const { return bit_count(w[0]) + bit_count(w[1]); }
  bool none() const { return (w[0] | w[1]) == 0; }
  bool any_in(const ByteMask& r) const { return ((w[0] & r.w[0]) | (w[1] & r.w[1])) != 0; }
  // Bit i set when chunk i (`chunk_bytes` each, a power of two) has a byte
  // set, for the first `chunks` chunks (at most 8): the sectors a line's
  // bytes touch, read off the words instead of a range mask per chunk.
  uint8_t chunks_touched(unsigned chunk_bytes, unsigned chunks) const {
    uint8_t out = 0;
    for (unsigned i = 0; i < chunks && i * chunk_bytes < kBits; ++i) {
      const unsigned first = i * chunk_bytes;
      const bool any = chunk_bytes >= kBits ? !none()
                       : chunk_bytes >= 64  ? w[first >> 6] != 0
                                            : ((w[first >> 6] >> (first & 63)) & ((uint64_t(1) << chunk_bytes) - 1)) != 0;
      out |= uint8_t(uint8_t(any) << i);
    }
    return out;
  }
  bool covers(const ByteMask& r) const { return (w[0] & r.w[0]) == r.w[0] && (w[1] & r.w[1]) == r.w[1]; }
  bool covers(unsigned first, unsigned count) const { return covers(range(first, count)); }

  ByteMask operator&(const ByteMask& o) const { return {{w[0] & o.w[0], w[1] & o.w[1]}}; }
  ByteMask operator|(const ByteMask& o) const { return {{w[0] | o.w[0], w[1] | o.w[1]}}; }
  ByteMask operator~() const { return {{~w[0], ~w[1]}}; }
  ByteMask& operator|=(const ByteMask& o) {
    w[0] |= o.w[0];
    w[1] |= o.w[1];
    return *this;
  }
  ByteMask& operator&=(const ByteMask& o) {
    w[0] &= o.w[0];
    w[1] &= o.w[1];
    return *this;
  }
  bool operator==(const ByteMask&) const = default;

 private:
  static uint64_t word_bits(unsigned shift, unsigned n) {
    uint64_t ones = n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    return ones << shift;
  }
};

}  // namespace accelsim
