// Miss status holding registers: entries keyed by sector address (line
// address + sector index), each holding up to `max_merge` waiting requests.
// Fixed storage sized at construction; lookups go through an open-addressed
// index so a 512-entry streaming L1 costs O(1) per access.
#pragma once
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

#include "base/flat_index.h"
#include "cache/cache_types.h"

namespace accelsim::cache {

class MshrTable {
 public:
  MshrTable(uint32_t entries, uint32_t max_merge);

  static uint64_t key(uint64_t line_addr, uint32_t sector) { return line_addr | sector; }

  uint32_t entries() const { return entries_; }
  uint32_t max_merge() const { return max_merge_; }
  uint32_t in_use() const { return in_use_; }
  bool full() const { return in_use_ == entries_; }

  // Entry id for the key, or -1.
  int32_t find(uint64_t key) const;
  // Waiters merged in entry `id`.
  uint32_t waiting(int32_t id) const { return count_[id]; }
  bool can_merge(int32_t id) const { return count_[id] < max_merge_; }
  // Opens an entry for `key` (precondition: !full() and find(key) < 0).
  int32_t open(uint64_t key);
  // Appends a waiter (precondition: can_merge(id)).
  void merge(int32_t id, const CacheRequest& req);
  // The entry's waiters, oldest first; valid until the entry is released.
  std::span<const CacheRequest> waiters(int32_t id) const;
  // Frees the entry; its waiter span stays readable until the next open().
  void release(int32_t id);

 private:
  uint32_t entries_, max_merge_, in_use_ = 0;
  std::vector<uint64_t> key_;           // per entry
  std::vector<uint32_t> count_;         // per entry: waiters held
  // entries x max_merge waiter slots, left uninitialised: a slot is written
  // (merge) before it is read (waiters), and a large table would otherwise
  // cost its zeroing and page faults at every construction (the L1Ds are
  // rebuilt at kernel boundaries).
  struct FreeStorage {
    void operator()(CacheRequest* p) const { ::operator delete(p); }
  };
  static_assert(std::is_trivially_copyable_v<CacheRequest> && std::is_trivially_destructible_v<CacheRequest>);
  std::unique_ptr<CacheRequest[], FreeStorage> waiters_;
  std::vector<int32_t> free_;           // free entry ids (stack)
  FlatIndex index_;                     // key -> entry id
};

}  // namespace accelsim::cache
