// Where an SM counts: its own single-slot storage until the GPU wires it to
// the run's counter families (count_into), then per stream slot there.
#include "cache/cache_types.h"
#include "sm/sm.h"

namespace accelsim::sm {

namespace {
constexpr size_t kEventWords = sizeof(stats::SmCounters) / sizeof(uint64_t);
constexpr size_t kCacheWords = size_t(cache::kAccessTypes) * cache::kOutcomes;
constexpr size_t kFailWords = size_t(cache::kAccessTypes) * cache::kFailReasons;
}  // namespace

void Sm::count_into_own_storage() {
  own_stats_.assign(kEventWords + stats::kInstClasses + stats::kStallReasons + 3 * kCacheWords +
                        kFailWords, 0);
  uint64_t* p = own_stats_.data();
  stats::SmStatSlots s;
  s.events = reinterpret_cast<stats::SmCounters*>(p);
  s.insts = p + kEventWords;
  s.stalls = s.insts + stats::kInstClasses;
  s.l1i = s.stalls + stats::kStallReasons;
  s.l1c = s.l1i + kCacheWords;
  s.l1d = s.l1c + kCacheWords;
  s.l1d_fails = s.l1d + kCacheWords;
  s.slots = 1;
  count_into(s);
}

void Sm::count_into(const stats::SmStatSlots& slots) {
  stat_ = slots;
  counters_ = slots.events;
  slot_warps_.assign(slots.slots, 0);
  slot_ctas_.assign(slots.slots, 0);
  fetch_.count_into(slots.events, slots.l1i);
  ldst_.count_into(slots);
}

stats::SmCounters Sm::counters() const {
  stats::SmCounters total;
  for (uint32_t s = 0; s < stat_.slots; ++s) total += counters_[s];
  return total;
}

}  // namespace accelsim::sm
