// The LD/ST unit: construction, the issue queue, responses from below, the
// miss queue, and when it next needs a tick (accesses: ldst_access.cpp).
#include "ldst/ldst_unit.h"

#include <algorithm>
#include <bit>

#include "base/sector_granules.h"

namespace accelsim::ldst {

using isa::InstRecord;

LdstUnit::LdstUnit(const LdstParams& params, uint16_t sm, MemPort* below,
                   CompletionQueue* completions)
    : p_(params), sm_(sm), below_(below), completions_(completions) {
  queue_.resize(std::max<uint32_t>(1, p_.queue_depth));
  write_through_ = p_.write_through;
  if (!p_.perfect_const)
    l1c_ = std::make_unique<cache::TagArray>(p_.l1c_sets, p_.l1c_assoc, p_.l1c_line, p_.l1c_line,
                                             "lru", "linear");
  set_l1d_size(p_.l1d.size_bytes);
}

void LdstUnit::set_l1d_size(int64_t bytes) {
  if (l1c_)  // kernel boundary: constants change between launches
    for (auto& line : l1c_->lines())
      if (line.allocated) l1c_->invalidate(line);
  if (l1d_ && bytes == l1d_bytes_) {
    l1d_->invalidate_all();  // kernel boundary: L1D is not coherent
    return;
  }
  l1d_bytes_ = bytes;
  l1d_.reset();
  if (bytes >= int64_t(p_.l1d.line_bytes))
    l1d_ = std::make_unique<cache::Cache>(p_.l1d_at(bytes, stat_.slots));
  attach_l1d_counters();
}

void LdstUnit::count_into(const stats::SmStatSlots& slots) {
  stat_ = slots;
  counters_ = slots.events;
  if (l1d_ && l1d_->params().stream_slots != slots.slots) {  // rebuild with the run's slots
    l1d_.reset();
    set_l1d_size(l1d_bytes_);
  }
  attach_l1d_counters();
}

// The L1D is rebuilt at kernel boundaries; its counts live in the run's family.
void LdstUnit::attach_l1d_counters() {
  if (l1d_ && stat_.l1d) l1d_->count_into(stat_.l1d, stat_.l1d_fails);
}

void LdstUnit::count_l1c(uint8_t stream, bool hit) {
  cache::Outcome o = hit ? cache::Outcome::HIT : cache::Outcome::MISS;
  size_t row = size_t(stream) * cache::kAccessTypes + size_t(cache::AccessType::CONST_R);
  ++stat_.l1c[row * cache::kOutcomes + size_t(o)];
}

void LdstUnit::issue(const InstRecord& inst, const uint64_t* addrs, uint16_t warp, uint8_t stream,
                     Cycle) {
  queue_[(head_ + queued_) % queue_.size()] = Pending{&inst, addrs, warp, stream};
  ++queued_;
  ++counters_[stream].mem_insts;
}

// Latencies are load-to-use from issue; the access stage runs the cycle after
// issue at the earliest, so `now - 1 + latency` (and never before next cycle).
Cycle LdstUnit::after(Cycle ready, Cycle now) { return latest(ready, now + 1); }

// Streamed blocks (PTX mode): the records a warp's queued accesses still
// point into, and re-basing them when the SM's buffer for them moves.
const InstRecord* LdstUnit::oldest_of(uint16_t warp) const {
  if (busy_ && cur_.warp == warp) return cur_.inst;  // older than anything queued
  for (uint32_t k = 0; k < queued_; ++k) {
    const Pending& p = queue_[(head_ + k) % queue_.size()];
    if (p.warp == warp) return p.inst;
  }
  return nullptr;
}

void LdstUnit::relocate(uint16_t warp, const InstRecord* from, const InstRecord* to, uint32_t dropped,
                        const uint64_t* from_addrs, const uint64_t* to_addrs, uint32_t dropped_addrs) {
  auto move = [&](Pending& p) {
    if (p.warp != warp) return;
    p.inst = to + ((p.inst - from) - ptrdiff_t(dropped));
    if (p.addrs) p.addrs = to_addrs + ((p.addrs - from_addrs) - ptrdiff_t(dropped_addrs));
  };
  if (busy_) move(cur_);
  for (uint32_t k = 0; k < queued_; ++k) move(queue_[(head_ + k) % queue_.size()]);
}

// With l1d_enabled false (Kepler/Pascal's default: global loads skip L1),
// loads on the read-only data path are still cached: L1 and texture cache are
// one SRAM from Maxwell on (on Kepler the 48 KB read-only cache is
// approximated by the L1D).
bool LdstUnit::is_direct(const InstRecord& in) const {
  return !l1d_ || (!p_.l1d_enabled && !(in.flags & isa::kFlagReadOnly)) ||
         (in.flags & (isa::kFlagBypassL1 | isa::kFlagAtomic));
}

// ---- stage: responses from below -------------------------------------------------

bool LdstUnit::deliver(Cycle now) {
  bool any = false;
  while (responses_.due(now)) {
    if (l1d_ && !l1d_->can_fill()) break;  // retry once the miss queue drains
    MemResponse r = responses_.pop();
    any = true;
    if (r.token & kDirect) {
      slots_.done(r.token & ~kDirect, 1, now, *completions_);
      continue;
    }
    // Granules below L1 -> the L1D's own sectors (one for a non-sectored L1D).
    const uint8_t sectors = sectors_of_granules(r.sector_mask, l1d_->params().sector_bytes);
    for (uint32_t s = 0; s < 8; ++s) {
      if (!(sectors & (1u << s))) continue;
      for (const cache::CacheRequest& w : l1d_->fill(r.line_addr, s, now))
        if (!cache::is_write(w.type)) slots_.done(w.tag, 1, now, *completions_);
    }
  }
  return any;
}

// ---- stage: L1D miss queue -> below ---------------------------------------------

bool LdstUnit::send(Cycle now) {
  if (!l1d_) return false;
  auto& q = l1d_->miss_queue();
  if (!q.front_ready(now)) return false;
  const cache::OutRequest& out = q.front();
  uint8_t kind = out.write ? kMemWrite : kMemRead;
  uint32_t token = out.write ? (out.tag | kDirect) : 0;
  const uint8_t granules = granules_of_sectors(out.sector_mask, l1d_->params().sector_bytes);
  MemRequest req{out.line_addr, token, sm_, granules, kind, out.stream, out.bytes};
  if (!below_->send(req, now)) return false;
  q.pop();
  return true;
}

// ---- scheduling helpers -----------------------------------------------------------

Cycle LdstUnit::next_event(Cycle now) const {
  Cycle next = responses_.next_ready();
  if (busy_) next = earliest(next, latest(now + 1, busy_until_));
  else if (queued_ > 0) next = earliest(next, latest(now + 1, latest(busy_until_, head_ready())));
  if (l1d_ && !l1d_->miss_queue().empty())
    next = earliest(next, latest(now + 1, l1d_->miss_queue().front_ready_cycle()));
  return next;
}

bool LdstUnit::idle() const {
  return !busy_ && queued_ == 0 && responses_.empty() && slots_.in_use() == 0 &&
         (!l1d_ || l1d_->miss_queue().empty());
}

std::string LdstUnit::describe() const {
  std::string s = "gpu.sm[" + std::to_string(sm_) + "].ldst: " + std::to_string(queued_) + " queued, " +
                  std::to_string(slots_.in_use()) + " memory instructions in flight, " +
                  std::to_string(responses_.size()) + " responses pending";
  if (responses_.size()) s += " (next at cycle " + std::to_string(responses_.next_ready().count()) + ")";
  if (l1d_) s += ", L1D miss queue " + std::to_string(l1d_->miss_queue().size());
  if (busy_) s += ", accessing request " + std::to_string(next_req_) + "/" + std::to_string(nreq_);
  return s;
}

}  // namespace accelsim::ldst
