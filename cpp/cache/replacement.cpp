#include "cache/replacement.h"

#include "base/named_registry.h"

namespace accelsim::cache {
namespace {

constexpr ReplacementPolicy kPolicies[] = {
    {"lru", "evict the line used least recently", &LineMeta::last_use, true},
    {"fifo", "evict the line allocated first", &LineMeta::alloc_cycle, false},
};

}  // namespace

std::span<const ReplacementPolicy> replacement_policies() { return kPolicies; }

const ReplacementPolicy& find_replacement_policy(std::string_view name) {
  return find_by_name(replacement_policies(), name, "replacement");
}

}  // namespace accelsim::cache
