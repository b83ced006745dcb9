#include "stats/sm_counters.h"

#include <cstddef>

namespace accelsim::stats {

namespace {
constexpr std::size_t kFields = sizeof(SmCounters) / sizeof(uint64_t);
uint64_t* fields(SmCounters& c) { return reinterpret_cast<uint64_t*>(&c); }
const uint64_t* fields(const SmCounters& c) { return reinterpret_cast<const uint64_t*>(&c); }
}  // namespace

SmCounters& SmCounters::operator+=(const SmCounters& o) {
  for (std::size_t i = 0; i < kFields; ++i) fields(*this)[i] += fields(o)[i];
  return *this;
}

SmCounters SmCounters::operator-(const SmCounters& o) const {
  SmCounters r = *this;
  for (std::size_t i = 0; i < kFields; ++i) fields(r)[i] -= fields(o)[i];
  return r;
}

}  // namespace accelsim::stats

namespace accelsim::stats {
const char* const kSmCounterNames[] = {
    "warp_insts",      "thread_insts",      "mem_insts",      "l1d_hits",
    "l1d_misses",      "l1d_mshr_merges",   "l1d_writes",     "l1d_bypass",
    "l1d_reservation_fails", "ldst_busy_cycles", "shmem_accesses", "shmem_bank_cycles",
    "const_accesses",  "icache_misses",     "ctas_launched",  "active_cycles",
    "ticks",           "warp_cycles"};
static_assert(sizeof(kSmCounterNames) / sizeof(kSmCounterNames[0]) == kSmCounterFields,
              "a field was added to SmCounters: name it here too");
}  // namespace accelsim::stats
