// 03x: the inline set-bit count the timing core uses on sector, granule and
// lane masks, against std::popcount.
#include <bit>
#include <cstdint>
#include <random>

#include "base/bit_count.h"
#include "tests/harness.h"

using namespace accelsim;

TEST_CASE("031-bit-count-equals-popcount-for-every-width") {
  for (uint32_t v = 0; v < 256; ++v) CHECK_EQ(bit_count(uint8_t(v)), std::popcount(uint8_t(v)));
  for (uint32_t v = 0; v < 65536; ++v) CHECK_EQ(bit_count(uint16_t(v)), std::popcount(uint16_t(v)));
  CHECK_EQ(bit_count(~uint32_t{0}), 32);
  CHECK_EQ(bit_count(~uint64_t{0}), 64);
  std::mt19937_64 rng(31);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t v = rng();
    CHECK_EQ(bit_count(v), std::popcount(v));
    CHECK_EQ(bit_count(uint32_t(v)), std::popcount(uint32_t(v)));
  }
  static_assert(bit_count(0x80000001u) == 2);
}
