#include "cache/mshr.h"

#include <bit>

#include "base/error.h"

namespace accelsim::cache {
namespace {

uint64_t mix(uint64_t k) { return (k ^ (k >> 29)) * 0x9E3779B97F4A7C15ull; }

}  // namespace

MshrTable::MshrTable(uint32_t entries, uint32_t max_merge)
    : entries_(entries), max_merge_(max_merge) {
  if (entries == 0) throw ConfigError("mshrs", "an MSHR table needs at least one entry");
  if (max_merge == 0) throw ConfigError("mshr_merge", "an MSHR entry must hold at least one request");
  key_.resize(entries);
  count_.resize(entries);
  waiters_.resize(static_cast<size_t>(entries) * max_merge);
  free_.reserve(entries);
  for (int32_t id = static_cast<int32_t>(entries) - 1; id >= 0; --id) free_.push_back(id);
  // At most half full, so linear probes stay short.
  size_t slots = std::bit_ceil(static_cast<size_t>(entries) * 2);
  slot_id_.assign(slots, -1);
  slot_key_.assign(slots, 0);
  slot_mask_ = slots - 1;
}

int32_t MshrTable::find(uint64_t key) const {
  for (uint64_t s = mix(key) & slot_mask_;; s = (s + 1) & slot_mask_) {
    if (slot_id_[s] < 0) return -1;
    if (slot_key_[s] == key) return slot_id_[s];
  }
}

int32_t MshrTable::open(uint64_t key) {
  int32_t id = free_.back();
  free_.pop_back();
  ++in_use_;
  key_[id] = key;
  count_[id] = 0;
  index_insert(key, id);
  return id;
}

void MshrTable::merge(int32_t id, const CacheRequest& req) {
  waiters_[static_cast<size_t>(id) * max_merge_ + count_[id]++] = req;
}

std::span<const CacheRequest> MshrTable::waiters(int32_t id) const {
  return {&waiters_[static_cast<size_t>(id) * max_merge_], count_[id]};
}

void MshrTable::release(int32_t id) {
  index_erase(key_[id]);
  free_.push_back(id);
  --in_use_;
}

void MshrTable::index_insert(uint64_t key, int32_t id) {
  uint64_t s = mix(key) & slot_mask_;
  while (slot_id_[s] >= 0) s = (s + 1) & slot_mask_;
  slot_id_[s] = id;
  slot_key_[s] = key;
}

// Backward-shift deletion: keeps every probe chain unbroken without tombstones.
void MshrTable::index_erase(uint64_t key) {
  uint64_t s = mix(key) & slot_mask_;
  while (slot_key_[s] != key || slot_id_[s] < 0) s = (s + 1) & slot_mask_;
  uint64_t hole = s;
  for (uint64_t j = (hole + 1) & slot_mask_; slot_id_[j] >= 0; j = (j + 1) & slot_mask_) {
    uint64_t home = mix(slot_key_[j]) & slot_mask_;
    // Move j into the hole unless its home lies cyclically in (hole, j].
    bool home_after_hole = ((j - home) & slot_mask_) < ((j - hole) & slot_mask_);
    if (home_after_hole) continue;
    slot_id_[hole] = slot_id_[j];
    slot_key_[hole] = slot_key_[j];
    hole = j;
  }
  slot_id_[hole] = -1;
}

}  // namespace accelsim::cache
