// Per-channel counters in one dense array; names in the same order, so the
// bindings can hand them out as a NumPy row with named columns.
#pragma once
#include <array>
#include <cstdint>

namespace accelsim::dram {

enum class DramCounter : uint8_t {
  reads,
  writes,
  activates,
  precharges,
  row_hits,
  row_misses,
  refreshes,
  busy_cycles,        // command cycles with data on the bus
  queue_full_stalls,  // push() refused because the queue was full
  write_drains,       // write-drain episodes started at the high watermark
  count
};
inline constexpr size_t kDramCounterCount = static_cast<size_t>(DramCounter::count);

inline constexpr std::array<const char*, kDramCounterCount> kDramCounterNames = {
    "reads",      "writes",    "activates",   "precharges",        "row_hits",
    "row_misses", "refreshes", "busy_cycles", "queue_full_stalls", "write_drains"};

using DramCounters = std::array<uint64_t, kDramCounterCount>;

}  // namespace accelsim::dram
