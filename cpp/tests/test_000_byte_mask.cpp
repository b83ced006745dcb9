// 04x: the byte mask's per-chunk summary (the sectors a line's bytes touch),
// against one range test per chunk.
#include <cstdint>
#include <random>

#include "base/byte_mask.h"
#include "tests/harness.h"

using namespace accelsim;

TEST_CASE("041-chunks-touched-equals-a-range-test-per-chunk") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 3000; ++trial) {
    ByteMask m;
    // A few runs of bytes, sometimes none, sometimes a single byte at an edge.
    for (int runs = trial % 4; runs > 0; --runs) {
      const unsigned first = unsigned(rng() % 128), count = unsigned(rng() % 40) + 1;
      m.set_range(first, count);
    }
    if (trial % 7 == 0) m.set_range(trial % 2 ? 127 : 63, 1);
    for (unsigned chunk = 1; chunk <= 128; chunk *= 2)
      for (unsigned chunks = 1; chunks <= 8; ++chunks) {
        uint8_t want = 0;
        for (unsigned i = 0; i < chunks; ++i)
          if (m.any_in(ByteMask::range(i * chunk, chunk))) want |= uint8_t(1u << i);
        CHECK_EQ(int(m.chunks_touched(chunk, chunks)), int(want));
      }
  }
}
