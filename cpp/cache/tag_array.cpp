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
  const ReplacementPolicy& policy = find_replacement_policy(replacement);
  stamp_ = policy.stamp;
  touch_renews_ = policy.touch_renews;
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
  free_words_ = (ways + 63) / 64;
  free_.assign(size_t(sets) * free_words_, ~uint64_t{0});
  if (ways % 64)  // no bits for ways the set does not have
    for (uint32_t s = 0; s < sets; ++s)
      free_[size_t(s + 1) * free_words_ - 1] = (uint64_t{1} << (ways % 64)) - 1;
  links_.resize(lines_.size());
  order_.resize(sets);
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
  LineMeta* line = first_free(set);
  return line ? line : oldest_evictable(set);
}

void TagArray::set_free(size_t i, bool free) {
  const size_t way = i % ways_;
  uint64_t& word = free_[i / ways_ * free_words_ + way / 64];
  const uint64_t bit = uint64_t{1} << (way % 64);
  word = free ? word | bit : word & ~bit;
}

// The lowest unallocated way.
LineMeta* TagArray::first_free(uint32_t set) {
  const uint64_t* words = &free_[size_t(set) * free_words_];
  for (uint32_t k = 0; k < free_words_; ++k)
    if (words[k]) return &lines_[size_t(set) * ways_ + k * 64 + uint32_t(std::countr_zero(words[k]))];
  return nullptr;
}

// Every way is allocated: the line with no fill pending and the smallest
// stamp, ties to the lowest way (the lines of equal stamp follow each other).
LineMeta* TagArray::oldest_evictable(uint32_t set) {
  uint32_t i = order_[set].head;
  while (i != kNone && lines_[i].reserved != 0) i = links_[i].next;
  if (i == kNone) return nullptr;
  uint32_t best = i;
  for (uint32_t j = links_[i].next; j != kNone && stamp(j) == stamp(i); j = links_[j].next)
    if (j < best && lines_[j].reserved == 0) best = j;
  return &lines_[best];
}

void TagArray::link(size_t i) {
  Order& o = order_[i / ways_];
  uint32_t at = o.tail;  // new stamps are the newest, so the walk is short
  while (at != kNone && stamp(at) > stamp(i)) at = links_[at].prev;
  Link& l = links_[i];
  l.prev = at;
  l.next = at == kNone ? o.head : links_[at].next;
  (l.prev == kNone ? o.head : links_[l.prev].next) = static_cast<uint32_t>(i);
  (l.next == kNone ? o.tail : links_[l.next].prev) = static_cast<uint32_t>(i);
}

void TagArray::unlink(size_t i) {
  Link& l = links_[i];
  if (l.prev == kNone || l.next == kNone) {
    Order& o = order_[i / ways_];
    if (l.prev == kNone) o.head = l.next;
    if (l.next == kNone) o.tail = l.prev;
  }
  if (l.prev != kNone) links_[l.prev].next = l.next;
  if (l.next != kNone) links_[l.next].prev = l.prev;
  l = Link{};
}

void TagArray::install(LineMeta& line, uint64_t line_addr, Cycle now) {
  const size_t i = index_of(line);
  if (line.allocated) {
    where_.erase(line.line_addr);
    unlink(i);
  } else {
    set_free(i, false);
  }
  line = LineMeta{};
  line.line_addr = line_addr;
  line.alloc_cycle = now.count();
  line.last_use = now.count();
  line.allocated = true;
  written_[i] = ByteMask{};
  where_.insert(line_addr, static_cast<int32_t>(i));
  link(i);
}

void TagArray::invalidate(LineMeta& line) {
  const size_t i = index_of(line);
  if (line.allocated) {
    where_.erase(line.line_addr);
    set_free(i, true);
    unlink(i);
  }
  line = LineMeta{};
  written_[i] = ByteMask{};
}

}  // namespace accelsim::cache
