#include "cache/cache.h"

#include <algorithm>
#include <bit>

#include "base/bit_count.h"
#include "base/error.h"

namespace accelsim::cache {
namespace {

uint32_t sets_for(const CacheParams& p) {
  uint64_t per_set = static_cast<uint64_t>(p.line_bytes) * p.assoc;
  if (p.size_bytes <= 0 || per_set == 0 || p.size_bytes % per_set)
    throw ConfigError(p.name + ".size", "size " + std::to_string(p.size_bytes) +
                                            " B is not a whole number of sets of " +
                                            std::to_string(p.assoc) + " x " +
                                            std::to_string(p.line_bytes) + " B");
  return static_cast<uint32_t>(p.size_bytes / per_set);
}

}  // namespace

Cache::Cache(const CacheParams& p)
    : p_(p),
      tags_(sets_for(p), p.assoc, p.line_bytes, p.sector_bytes, p.replacement, p.set_index),
      mshr_(p.mshr_entries, p.mshr_max_merge),
      miss_queue_(p.miss_queue_entries) {
  // Worst single miss: fetch + victim write-back (+ write-through copy).
  const bool three = p.write_policy == WritePolicy::WRITE_THROUGH &&
                     p.write_alloc == WriteAllocPolicy::FETCH_ON_WRITE;
  if (p.miss_queue_entries < (three ? 3u : 2u))
    throw ConfigError(p.name + ".miss_queue", "too small for the worst miss (fetch + write-back"
                                              " + write-through); it would never be admitted");
  if (p.stream_slots == 0 || p.stream_slots > 256)
    throw ConfigError(p.name + ".stream_slots", "stream slots must be 1..256");
  fill_out_.resize(p.mshr_max_merge);
  n_counts_ = static_cast<size_t>(p.stream_slots) * kAccessTypes * kOutcomes;
  n_fails_ = static_cast<size_t>(p.stream_slots) * kAccessTypes * kFailReasons;
  own_counts_.assign(n_counts_, 0);
  own_fails_.assign(n_fails_, 0);
  count_into(own_counts_.data(), own_fails_.data());
}

void Cache::count_into(uint64_t* counts, uint64_t* fails, uint32_t slots) {
  if (slots == 0 || slots > 256) throw ConfigError(p_.name + ".stream_slots", "stream slots must be 1..256");
  p_.stream_slots = slots;
  n_counts_ = size_t(slots) * kAccessTypes * kOutcomes;
  n_fails_ = size_t(slots) * kAccessTypes * kFailReasons;
  count_into(counts, fails);
}

AccessResult Cache::access(const CacheRequest& req, Cycle now) {
  // One predictable branch guards the counter and MSHR-key arithmetic.
  if (req.stream >= p_.stream_slots || req.sector >= tags_.sectors_per_line() ||
      tags_.line_of(req.line_addr) != req.line_addr || req.type >= AccessType::COUNT)
    throw Error(p_.name + ": malformed request (stream slot, sector or unaligned line address)");
  return is_write(req.type) ? write(req, now) : read(req, now);
}

AccessResult Cache::read(const CacheRequest& req, Cycle now) {
  const uint8_t bit = uint8_t(1u << req.sector);
  LineMeta* line = tags_.find(req.line_addr);
  if (line && (line->readable & bit)) {
    tags_.touch(*line, now);
    return record(req, Outcome::HIT);
  }
  int32_t id = mshr_.find(MshrTable::key(req.line_addr, req.sector));
  if (id >= 0) {  // the sector is already on its way: wait for the same fill
    if (!mshr_.can_merge(id)) return record(req, Outcome::RESERVATION_FAIL, FailReason::MSHR_MERGE_FAIL);
    mshr_.merge(id, req);
    if (line) tags_.touch(*line, now);
    bool reserved = line && (line->reserved & bit);
    return record(req, reserved ? Outcome::HIT_RESERVED : Outcome::MSHR_HIT);
  }
  return miss(req, line, now, req.type, 0);
}

// A fetch for a sector nobody is fetching yet. Checks every resource before
// changing anything, so a RESERVATION_FAIL leaves the cache as it was.
AccessResult Cache::miss(const CacheRequest& req, LineMeta* line, Cycle now,
                         AccessType fetch_type, uint32_t extra_slots) {
  LineMeta* target = line;
  bool writeback = false;
  if (!line && !p_.streaming) {  // allocate-on-miss: the line is reserved now
    target = tags_.victim(req.line_addr);
    if (!target) return record(req, Outcome::RESERVATION_FAIL, FailReason::LINE_ALLOC_FAIL);
    writeback = target->allocated && target->modified;
  }
  if (miss_queue_.free_slots() < 1 + extra_slots + (writeback ? 1u : 0u))
    return record(req, Outcome::RESERVATION_FAIL, FailReason::MISS_QUEUE_FULL);
  if (mshr_.full()) return record(req, Outcome::RESERVATION_FAIL, FailReason::MSHR_ENTRY_FAIL);

  const uint8_t bit = uint8_t(1u << req.sector);
  // Neighbours fetched alongside (reads only), each with an MSHR of its own
  // and no waiter, so a later access merges on it or hits.
  uint8_t group = is_write(req.type) ? 0 : fetch_group(req, line);
  if (uint32_t(bit_count(group)) > mshr_.entries() - mshr_.in_use() - 1) group = 0;
  if (target && !line) {
    if (writeback) push_writeback(*target, now, req.stream);
    tags_.install(*target, req.line_addr, now);
  }
  if (target) {
    if (!p_.streaming) target->reserved |= uint8_t(bit | group);
    tags_.touch(*target, now);
  }
  int32_t id = mshr_.open(MshrTable::key(req.line_addr, req.sector));
  mshr_.merge(id, req);
  OutRequest out;
  out.line_addr = req.line_addr;
  out.bytes = sector_bytes(req.sector);
  for (uint8_t m = group; m; m &= uint8_t(m - 1)) {
    const uint32_t s = uint32_t(std::countr_zero(m));
    mshr_.open(MshrTable::key(req.line_addr, s));
    out.bytes |= sector_bytes(s);
  }
  out.type = fetch_type;
  out.sector_mask = uint8_t(bit | group);
  out.stream = req.stream;
  push_out(out, now);
  return record(req, line ? Outcome::SECTOR_MISS : Outcome::MISS);
}

uint8_t Cache::fetch_group(const CacheRequest& req, const LineMeta* line) const {
  const uint32_t k = p_.fetch_sectors;
  if (k <= 1) return 0;
  const uint32_t first = req.sector / k * k;
  const uint32_t last = std::min(first + k, tags_.sectors_per_line());
  uint8_t group = 0;
  for (uint32_t s = first; s < last; ++s) {
    if (s == req.sector) continue;
    const uint8_t b = uint8_t(1u << s);
    if (line && ((line->readable | line->reserved) & b)) continue;
    if (mshr_.find(MshrTable::key(req.line_addr, s)) >= 0) continue;
    group |= b;
  }
  return group;
}

AccessResult Cache::write(const CacheRequest& req, Cycle now) {
  const uint8_t bit = uint8_t(1u << req.sector);
  const bool through = p_.write_policy == WritePolicy::WRITE_THROUGH;
  LineMeta* line = tags_.find(req.line_addr);
  if (line && (line->present() & bit)) {  // write hit (possibly on a pending fill)
    if (through && miss_queue_.full())
      return record(req, Outcome::RESERVATION_FAIL, FailReason::MISS_QUEUE_FULL);
    bool pending = (line->reserved & bit) && !(line->readable & bit);
    apply_write(*line, req);
    tags_.touch(*line, now);
    if (through) push_out(write_through(req), now);
    return record(req, pending ? Outcome::HIT_RESERVED : Outcome::HIT);
  }
  switch (p_.write_alloc) {
    case WriteAllocPolicy::NO_ALLOCATE:
      if (miss_queue_.full()) return record(req, Outcome::RESERVATION_FAIL, FailReason::MISS_QUEUE_FULL);
      push_out(write_through(req), now);
      return record(req, line ? Outcome::SECTOR_MISS : Outcome::MISS);
    case WriteAllocPolicy::FETCH_ON_WRITE:
      return fetch_on_write(req, line, now);
    case WriteAllocPolicy::WRITE_VALIDATE:
      return write_validate(req, line, now);
  }
  return record(req, Outcome::MISS);
}

// The write waits in the MSHR for the sector and is applied by fill().
AccessResult Cache::fetch_on_write(const CacheRequest& req, LineMeta* line, Cycle now) {
  const bool through = p_.write_policy == WritePolicy::WRITE_THROUGH;
  int32_t id = mshr_.find(MshrTable::key(req.line_addr, req.sector));
  if (id >= 0) {
    if (!mshr_.can_merge(id)) return record(req, Outcome::RESERVATION_FAIL, FailReason::MSHR_MERGE_FAIL);
    if (through && miss_queue_.full())
      return record(req, Outcome::RESERVATION_FAIL, FailReason::MISS_QUEUE_FULL);
    mshr_.merge(id, req);
    if (through) push_out(write_through(req), now);
    return record(req, Outcome::MSHR_HIT);
  }
  AccessResult r = miss(req, line, now, p_.write_alloc_type, through ? 1 : 0);
  if (through && r.outcome != Outcome::RESERVATION_FAIL) push_out(write_through(req), now);
  return r;
}

// Write-validate: allocate and write the bytes; no fetch. The sector becomes
// readable only once its bytes are all written (or a later read fetches it).
AccessResult Cache::write_validate(const CacheRequest& req, LineMeta* line, Cycle now) {
  const bool through = p_.write_policy == WritePolicy::WRITE_THROUGH;
  LineMeta* target = line;
  bool writeback = false;
  if (!line) {
    target = tags_.victim(req.line_addr);
    if (!target) return record(req, Outcome::RESERVATION_FAIL, FailReason::LINE_ALLOC_FAIL);
    writeback = target->allocated && target->modified;
  }
  if (miss_queue_.free_slots() < (writeback ? 1u : 0u) + (through ? 1u : 0u))
    return record(req, Outcome::RESERVATION_FAIL, FailReason::MISS_QUEUE_FULL);
  if (!line) {
    if (writeback) push_writeback(*target, now, req.stream);
    tags_.install(*target, req.line_addr, now);
  }
  apply_write(*target, req);
  tags_.touch(*target, now);
  if (through) push_out(write_through(req), now);
  return record(req, line ? Outcome::SECTOR_MISS : Outcome::MISS);
}

void Cache::apply_write(LineMeta& line, const CacheRequest& w) {
  const uint8_t bit = uint8_t(1u << w.sector);
  const ByteMask sector = sector_bytes(w.sector);
  ByteMask& written = tags_.written(line);
  written |= (w.bytes & sector);
  if (p_.write_policy == WritePolicy::WRITE_BACK) line.modified |= bit;
  if (written.covers(sector)) line.readable |= bit;
}

std::span<const CacheRequest> Cache::fill(uint64_t line_addr, uint32_t sector, Cycle now) {
  int32_t id = mshr_.find(MshrTable::key(line_addr, sector));
  if (id < 0) return {};
  const uint8_t bit = uint8_t(1u << sector);
  LineMeta* line = tags_.find(line_addr);
  if (!line) {  // streaming: the line is allocated only now
    line = tags_.victim(line_addr);
    if (line) {
      if (line->allocated && line->modified) push_writeback(*line, now);
      tags_.install(*line, line_addr, now);
    }
  }
  std::span<const CacheRequest> waiting = mshr_.waiters(id);
  uint32_t n = 0;
  for (const CacheRequest& r : waiting) fill_out_[n++] = r;
  mshr_.release(id);
  if (line) {
    line->reserved &= uint8_t(~bit);
    line->readable |= bit;
    for (uint32_t i = 0; i < n; ++i)
      if (is_write(fill_out_[i].type)) apply_write(*line, fill_out_[i]);
  }
  return {fill_out_.data(), n};
}

bool Cache::fill_pending(uint64_t line_addr, uint32_t sector) const {
  return mshr_.find(MshrTable::key(line_addr, sector)) >= 0;
}

}  // namespace accelsim::cache
