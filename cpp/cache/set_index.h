// Set index functions, chosen by name (config key *_set_index): the hook for
// hashed indexing. `line_number` is line_addr / line_bytes.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

namespace accelsim::cache {

struct SetIndexParams {
  uint32_t sets = 1;
  uint32_t set_bits = 0;  // log2(sets) when sets is a power of two
  bool pow2 = true;
};

struct SetIndexFunction {
  const char* name;
  const char* doc;
  bool needs_pow2;  // refuses a non-power-of-two set count
  uint32_t (*index)(uint64_t line_number, const SetIndexParams& p);
};

std::span<const SetIndexFunction> set_index_functions();
const SetIndexFunction& find_set_index(std::string_view name);
// Largest log2(sets) the hashed functions support.
uint32_t max_hashed_set_bits();

}  // namespace accelsim::cache
