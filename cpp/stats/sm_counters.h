// Counters one SM keeps (declared in sm_counters.def); contiguous plain
// integers so that a per-kernel number is the difference of two snapshots.
#pragma once
#include <cstddef>
#include <cstdint>

namespace accelsim::stats {

struct SmCounters {
#define ACCELSIM_SM_COUNTER(field, doc) uint64_t field = 0;
#include "stats/sm_counters.def"
#undef ACCELSIM_SM_COUNTER

  SmCounters& operator+=(const SmCounters& o);
  SmCounters operator-(const SmCounters& o) const;
};

}  // namespace accelsim::stats

namespace accelsim::stats {
// The struct is viewed as a row of a counter family (plain uint64 words).
static_assert(sizeof(SmCounters) % sizeof(uint64_t) == 0);
// Field names in declaration order: the labels of that family's last dimension.
extern const char* const kSmCounterNames[];
constexpr size_t kSmCounterFields = sizeof(SmCounters) / sizeof(uint64_t);
}  // namespace accelsim::stats
