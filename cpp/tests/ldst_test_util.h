// Helpers for the LD/ST unit tests (coalescer, shared banks): one warp's
// lane addresses.
#pragma once
#include <cstdint>

namespace accelsim::testing {

struct Lanes {
  uint64_t a[32] = {};
};

// Lane i gets base + i * stride.
inline Lanes strided(uint64_t base, uint64_t stride) {
  Lanes l;
  for (int i = 0; i < 32; ++i) l.a[i] = base + i * stride;
  return l;
}

}  // namespace accelsim::testing
