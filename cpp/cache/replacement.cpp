#include "cache/replacement.h"

#include "base/named_registry.h"

namespace accelsim::cache {
namespace {

// Smallest stamp among evictable lines; ties go to the lowest way so the
// choice is deterministic. Reserved lines read as "newest" so the loop has
// no data-dependent skip.
template <uint64_t LineMeta::*Stamp>
int32_t oldest_by(std::span<const LineMeta> set) {
  constexpr uint64_t kNever = ~uint64_t{0};
  uint64_t best_key = kNever;
  int32_t best = -1;
  for (size_t w = 0; w < set.size(); ++w) {
    const uint64_t key = set[w].evictable() ? set[w].*Stamp : kNever;
    if (key < best_key) {
      best_key = key;
      best = static_cast<int32_t>(w);
    }
  }
  return best;
}

constexpr ReplacementPolicy kPolicies[] = {
    {"lru", "evict the line used least recently", &oldest_by<&LineMeta::last_use>},
    {"fifo", "evict the line allocated first", &oldest_by<&LineMeta::alloc_cycle>},
};

}  // namespace

std::span<const ReplacementPolicy> replacement_policies() { return kPolicies; }

const ReplacementPolicy& find_replacement_policy(std::string_view name) {
  return find_by_name(replacement_policies(), name, "replacement");
}

}  // namespace accelsim::cache
