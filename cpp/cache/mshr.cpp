#include "cache/mshr.h"

#include "base/error.h"

namespace accelsim::cache {

MshrTable::MshrTable(uint32_t entries, uint32_t max_merge)
    : entries_(entries), max_merge_(max_merge), index_(entries) {
  if (entries == 0) throw ConfigError("mshrs", "an MSHR table needs at least one entry");
  if (max_merge == 0) throw ConfigError("mshr_merge", "an MSHR entry must hold at least one request");
  key_.resize(entries);
  count_.resize(entries);
  waiters_.reset(static_cast<CacheRequest*>(::operator new(sizeof(CacheRequest) * entries * size_t(max_merge))));
  free_.reserve(entries);
  for (int32_t id = static_cast<int32_t>(entries) - 1; id >= 0; --id) free_.push_back(id);
}

int32_t MshrTable::find(uint64_t key) const { return index_.find(key); }

int32_t MshrTable::open(uint64_t key) {
  int32_t id = free_.back();
  free_.pop_back();
  ++in_use_;
  key_[id] = key;
  count_[id] = 0;
  index_.insert(key, id);
  return id;
}

void MshrTable::merge(int32_t id, const CacheRequest& req) {
  waiters_[static_cast<size_t>(id) * max_merge_ + count_[id]++] = req;
}

std::span<const CacheRequest> MshrTable::waiters(int32_t id) const {
  return {&waiters_[static_cast<size_t>(id) * max_merge_], count_[id]};
}

void MshrTable::release(int32_t id) {
  index_.erase(key_[id]);
  free_.push_back(id);
  --in_use_;
}

}  // namespace accelsim::cache
