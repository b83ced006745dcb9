#include "ldst/shared_banks.h"

#include <algorithm>
#include <bit>
#include <iterator>

namespace accelsim::ldst {
namespace {

constexpr uint32_t kWordBytes = 4;
constexpr uint32_t kPhaseBytes = 128;  // data one bank pass delivers (32 banks x 4 B)
constexpr uint32_t kMaxBanks = 64;

// Largest number of distinct words that fall in one bank. words is sorted
// and de-duplicated in place (broadcast: one word serves many lanes).
uint32_t phase_degree(uint64_t* words, uint32_t n, uint32_t banks) {
  if (n == 0) return 0;
  std::sort(words, words + n);
  n = static_cast<uint32_t>(std::unique(words, words + n) - words);
  uint8_t per_bank[kMaxBanks] = {};
  uint32_t worst = 0;
  for (uint32_t i = 0; i < n; ++i) worst = std::max<uint32_t>(worst, ++per_bank[words[i] % banks]);
  return worst;
}

}  // namespace

uint32_t shared_bank_cycles(uint32_t active_mask, uint32_t access_bytes, const uint64_t* lane_addrs,
                            uint32_t banks) {
  if (active_mask == 0 || access_bytes == 0) return 0;
  banks = std::clamp<uint32_t>(banks, 1, kMaxBanks);
  const uint32_t lane_bytes = std::max(access_bytes, kWordBytes);
  const uint32_t words_per_lane = (lane_bytes + kWordBytes - 1) / kWordBytes;
  const uint32_t lanes_per_phase = std::clamp<uint32_t>(kPhaseBytes / lane_bytes, 1, 32);
  // Natural alignment for power-of-two sizes, word alignment otherwise.
  const uint64_t align = std::has_single_bit(access_bytes) ? access_bytes : kWordBytes;
  uint64_t words[32 * 8];  // words_per_lane * lanes_per_phase <= 32 for sizes <= 128 B
  uint32_t cycles = 0;
  for (uint32_t base = 0; base < 32; base += lanes_per_phase) {
    uint32_t n = 0;
    for (uint32_t lane = base; lane < base + lanes_per_phase && lane < 32; ++lane) {
      if (!(active_mask >> lane & 1)) continue;
      const uint64_t first = (lane_addrs[lane] & ~(align - 1)) / kWordBytes;
      for (uint32_t k = 0; k < words_per_lane && n < std::size(words); ++k) words[n++] = first + k;
    }
    cycles += phase_degree(words, n, banks);
  }
  return cycles;
}

}  // namespace accelsim::ldst
