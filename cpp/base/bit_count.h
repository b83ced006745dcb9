// Set bits of an unsigned word, inline. std::popcount becomes a library call
// (libgcc's __popcountdi2) unless the build targets a CPU with POPCNT, which a
// portable build does not; the timing core counts sector, granule and lane
// masks several times per memory access, so the call showed in profiles.
#pragma once
#include <concepts>
#include <cstdint>

namespace accelsim {

template <std::unsigned_integral T>
constexpr int bit_count(T value) {
  if constexpr (sizeof(T) <= 4) {
    uint32_t v = uint32_t(value);
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return int((((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
  } else {
    uint64_t v = uint64_t(value);
    v = v - ((v >> 1) & 0x5555555555555555ull);
    v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
    return int((((v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full) * 0x0101010101010101ull) >> 56);
  }
}

}  // namespace accelsim
