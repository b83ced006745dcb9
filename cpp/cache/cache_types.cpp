#include "cache/cache_types.h"

#include <iterator>

namespace accelsim::cache {
namespace {

constexpr const char* kAccessTypeNames[] = {
    "GLOBAL_R", "LOCAL_R", "CONST_R", "TEXTURE_R", "GLOBAL_W", "LOCAL_W",
    "L1_WRBK",  "L2_WRBK", "INST_R",  "L1_WR_ALLOC_R", "L2_WR_ALLOC_R"};
constexpr const char* kOutcomeNames[] = {"HIT",         "HIT_RESERVED", "MISS",
                                         "RESERVATION_FAIL", "SECTOR_MISS", "MSHR_HIT"};
constexpr const char* kFailNames[] = {"LINE_ALLOC_FAIL", "MSHR_ENTRY_FAIL", "MSHR_MERGE_FAIL",
                                      "MISS_QUEUE_FULL"};

static_assert(std::size(kAccessTypeNames) == kAccessTypes);
static_assert(std::size(kOutcomeNames) == kOutcomes);
static_assert(std::size(kFailNames) == kFailReasons);

}  // namespace

const char* access_type_name(AccessType t) { return kAccessTypeNames[static_cast<int>(t)]; }
const char* outcome_name(Outcome o) { return kOutcomeNames[static_cast<int>(o)]; }
const char* fail_reason_name(FailReason r) {
  return r == FailReason::NONE ? "NONE" : kFailNames[static_cast<int>(r)];
}

}  // namespace accelsim::cache
