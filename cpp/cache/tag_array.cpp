#include "cache/tag_array.h"

#include <bit>

#include "base/error.h"

namespace accelsim::cache {

TagArray::TagArray(uint32_t sets, uint32_t ways, uint32_t line_bytes, uint32_t sector_bytes,
                   const std::string& replacement, const std::string& set_index)
    : sets_(sets),
      ways_(ways),
      line_bytes_(line_bytes),
      sector_bytes_(sector_bytes),
      where_(static_cast<size_t>(sets) * ways) {
  if (sets == 0 || ways == 0) throw ConfigError("assoc", "cache needs at least one set and one way");
  if (!std::has_single_bit(line_bytes) || line_bytes > ByteMask::kBits)
    throw ConfigError("line", "line size must be a power of two <= 128 B, got " + std::to_string(line_bytes));
  if (sector_bytes == 0 || line_bytes % sector_bytes || line_bytes / sector_bytes > 8)
    throw ConfigError("sector", "sector size must divide the line into 1..8 sectors");
  line_shift_ = std::countr_zero(line_bytes);
  policy_ = &find_replacement_policy(replacement);
  index_fn_ = &find_set_index(set_index);
  index_params_.sets = sets;
  index_params_.pow2 = std::has_single_bit(sets);
  index_params_.set_bits = index_params_.pow2 ? std::countr_zero(sets) : 0;
  if (index_fn_->needs_pow2 && (!index_params_.pow2 || index_params_.set_bits > max_hashed_set_bits()))
    throw ConfigError("set_index", std::string(index_fn_->name) +
                                       " indexing needs a power-of-two set count, got " +
                                       std::to_string(sets));
  lines_.resize(static_cast<size_t>(sets) * ways);
  written_.resize(lines_.size());
  valid_.assign(sets, 0);
}

uint32_t TagArray::set_of(uint64_t line_addr) const {
  return index_fn_->index(line_addr >> line_shift_, index_params_);
}

LineMeta* TagArray::find(uint64_t line_addr) {
  int32_t i = where_.find(line_addr);
  return i < 0 ? nullptr : &lines_[static_cast<size_t>(i)];
}

const LineMeta* TagArray::find(uint64_t line_addr) const {
  int32_t i = where_.find(line_addr);
  return i < 0 ? nullptr : &lines_[static_cast<size_t>(i)];
}

LineMeta* TagArray::victim(uint64_t line_addr) {
  const uint32_t set = set_of(line_addr);
  LineMeta* base = &lines_[static_cast<size_t>(set) * ways_];
  if (valid_[set] < ways_)
    for (uint32_t w = 0; w < ways_; ++w)
      if (!base[w].allocated) return &base[w];
  int32_t w = policy_->victim(std::span<const LineMeta>(base, ways_));
  return w < 0 ? nullptr : &base[w];
}

void TagArray::install(LineMeta& line, uint64_t line_addr, Cycle now) {
  const size_t i = index_of(line);
  if (line.allocated)
    where_.erase(line.line_addr);
  else
    ++valid_[i / ways_];
  line = LineMeta{};
  line.line_addr = line_addr;
  line.alloc_cycle = now.count();
  line.last_use = now.count();
  line.allocated = true;
  written_[i] = ByteMask{};
  where_.insert(line_addr, static_cast<int32_t>(i));
}

void TagArray::invalidate(LineMeta& line) {
  const size_t i = index_of(line);
  if (line.allocated) {
    where_.erase(line.line_addr);
    --valid_[i / ways_];
  }
  line = LineMeta{};
  written_[i] = ByteMask{};
}

}  // namespace accelsim::cache
