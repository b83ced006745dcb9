// Replacement policies, chosen by name (config key *_replacement). A policy
// only picks a victim among the evictable ways of one set; the tag array keeps
// the per-line time stamps every policy here needs.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "cache/line.h"

namespace accelsim::cache {

struct ReplacementPolicy {
  const char* name;
  const char* doc;
  // Index of the victim among `set`, considering only lines with
  // evictable() true; -1 when none is evictable.
  int32_t (*victim)(std::span<const LineMeta> set);
};

std::span<const ReplacementPolicy> replacement_policies();
// Throws ConfigError listing the known names.
const ReplacementPolicy& find_replacement_policy(std::string_view name);

}  // namespace accelsim::cache
