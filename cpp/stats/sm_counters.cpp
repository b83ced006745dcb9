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
#define ACCELSIM_SM_COUNTER(field, doc) #field,
#include "stats/sm_counters.def"
#undef ACCELSIM_SM_COUNTER
};
static_assert(sizeof(kSmCounterNames) / sizeof(kSmCounterNames[0]) == kSmCounterFields,
              "every SmCounters field comes from sm_counters.def");
}  // namespace accelsim::stats
