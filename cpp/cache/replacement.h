// Replacement policies, chosen by name (config key *_replacement). Every
// policy here evicts, among the evictable ways of a full set, the line with
// the smallest time stamp, ties to the lowest way; a policy only says which
// stamp. The tag array keeps each set's lines in that order (TagArray), so a
// victim is found without scanning the set.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "cache/line.h"

namespace accelsim::cache {

struct ReplacementPolicy {
  const char* name;
  const char* doc;
  uint64_t LineMeta::*stamp;  // the age the policy orders lines by
  bool touch_renews;          // a hit sets the stamp (so it reorders the set)
};

std::span<const ReplacementPolicy> replacement_policies();
// Throws ConfigError listing the known names.
const ReplacementPolicy& find_replacement_policy(std::string_view name);

}  // namespace accelsim::cache
