// Cache bookkeeping off the access path: outgoing requests, counters,
// invalidation and flush.
#include <algorithm>

#include "base/error.h"
#include "cache/cache.h"

namespace accelsim::cache {

ByteMask Cache::sector_bytes(uint32_t sector) const {
  const uint32_t s = tags_.sector_bytes();
  return ByteMask::range(sector * s, s);
}

OutRequest Cache::write_through(const CacheRequest& req) const {
  OutRequest out;
  out.line_addr = req.line_addr;
  out.bytes = req.bytes & sector_bytes(req.sector);
  out.tag = req.tag;
  out.type = req.type;
  out.sector_mask = uint8_t(1u << req.sector);
  out.stream = req.stream;
  out.write = true;
  return out;
}

// Callers check free slots first; a failed push here is a model bug.
void Cache::push_out(const OutRequest& out, Cycle now) {
  if (!miss_queue_.push(out, now + p_.miss_queue_latency))
    throw Error(p_.name + ": miss queue overflow (fill() called without can_fill()?)");
}

// Fully readable modified sectors go back whole; partially written ones
// carry only their written bytes (write-validate).
OutRequest Cache::writeback_of(const LineMeta& line) {
  OutRequest out;
  out.line_addr = line.line_addr;
  out.type = p_.writeback_type;
  out.sector_mask = line.modified;
  out.write = true;
  for (uint32_t s = 0; s < tags_.sectors_per_line(); ++s) {
    if (!(line.modified >> s & 1)) continue;
    ByteMask sec = sector_bytes(s);
    out.bytes |= (line.readable >> s & 1) ? sec : (tags_.written(line) & sec);
  }
  return out;
}

void Cache::push_writeback(const LineMeta& line, Cycle now, uint8_t stream) {
  OutRequest out = writeback_of(line);
  out.stream = stream;
  push_out(out, now);
}

AccessResult Cache::record(const CacheRequest& req, Outcome o, FailReason r) {
  const size_t row = static_cast<size_t>(req.stream) * kAccessTypes + static_cast<size_t>(req.type);
  ++counts_[row * kOutcomes + static_cast<size_t>(o)];
  if (r != FailReason::NONE) ++fails_[row * kFailReasons + static_cast<size_t>(r)];
  return {o, r};
}

uint64_t Cache::count(AccessType t, Outcome o, uint32_t stream) const {
  if (stream >= p_.stream_slots) throw Error(p_.name + ": stream slot out of range");
  const size_t row = static_cast<size_t>(stream) * kAccessTypes + static_cast<size_t>(t);
  return access_counts()[row * kOutcomes + static_cast<size_t>(o)];
}

uint64_t Cache::fail_count(AccessType t, FailReason r, uint32_t stream) const {
  if (stream >= p_.stream_slots) throw Error(p_.name + ": stream slot out of range");
  const size_t row = static_cast<size_t>(stream) * kAccessTypes + static_cast<size_t>(t);
  return fail_counts()[row * kFailReasons + static_cast<size_t>(r)];
}

void Cache::reset_counters() {
  std::fill(counts_, counts_ + n_counts_, 0);
  std::fill(fails_, fails_ + n_fails_, 0);
}

void Cache::invalidate_all() {
  for (LineMeta& line : tags_.lines()) {
    if (!line.allocated) continue;
    if (line.reserved) {  // keep the tag so the pending fill lands
      line.readable = line.modified = 0;
      tags_.written(line) = ByteMask{};
    } else {
      tags_.invalidate(line);
    }
  }
}

void Cache::warm(uint64_t line_addr, uint8_t sectors, bool write, Cycle now) {
  LineMeta* line = tags_.find(line_addr);
  if (!line) {
    line = tags_.victim(line_addr);
    if (!line) return;
    tags_.install(*line, line_addr, now);
  }
  const bool keep_dirty = write && p_.write_policy == WritePolicy::WRITE_BACK;
  if (keep_dirty) {
    line->modified |= sectors;
  }
  line->readable |= sectors;
  tags_.touch(*line, now);
}

void Cache::flush(std::vector<OutRequest>& out) {
  for (LineMeta& line : tags_.lines()) {
    if (!line.allocated || !line.modified) continue;
    OutRequest wb = writeback_of(line);
    out.push_back(wb);
    line.modified = 0;
    tags_.written(line) = ByteMask{};
  }
}

}  // namespace accelsim::cache
