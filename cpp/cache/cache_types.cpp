#include "cache/cache_types.h"

#include <iterator>

namespace accelsim::cache {
namespace {

#define ACCELSIM_NAME(e, name, doc) name,
constexpr const char* kAccessTypeNames[] = {ACCELSIM_ACCESS_TYPES(ACCELSIM_NAME)};
constexpr const char* kOutcomeNames[] = {ACCELSIM_OUTCOMES(ACCELSIM_NAME)};
constexpr const char* kFailNames[] = {ACCELSIM_FAIL_REASONS(ACCELSIM_NAME)};
#undef ACCELSIM_NAME

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
