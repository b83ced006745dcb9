#include "ldst/ldst_unit.h"

#include <algorithm>
#include <bit>
#include <span>

#include "ldst/shared_banks.h"

namespace accelsim::ldst {

using trace::InstRecord;

LdstUnit::LdstUnit(const config::GpuConfig& cfg, uint16_t sm, MemPort* below,
                   sm::CompletionQueue* completions, stats::SmCounters* counters)
    : cfg_(cfg), sm_(sm), below_(below), completions_(completions), counters_(counters) {
  coalescer_.group_threads = uint32_t(cfg.coalescer_threads);
  coalescer_.line_bytes = uint32_t(cfg.l1d_line);
  coalescer_.sector_bytes = uint32_t(cfg.l1d_sector);
  coalescer_.segment_bytes = uint32_t(cfg.coalescer_segment);
  coalescer_.merge_groups = true;  // the L1D serves a whole line (its sectors) per access
  queue_.resize(std::max<int64_t>(1, cfg.ldst_units_per_sm));
  write_through_ = cfg.l1d_write_policy == "write_through";
  set_l1d_size(cfg.l1d_size);
}

void LdstUnit::set_l1d_size(int64_t bytes) {
  if (l1d_ && bytes == l1d_bytes_) {
    l1d_->invalidate_all();  // kernel boundary: L1D is not coherent
    return;
  }
  l1d_bytes_ = bytes;
  l1d_.reset();
  if (bytes >= cfg_.l1d_line) l1d_ = std::make_unique<cache::Cache>(cache::l1d_params(cfg_, bytes, 1));
}

void LdstUnit::issue(const InstRecord& inst, const uint64_t* addrs, uint16_t warp, uint64_t) {
  queue_[(head_ + queued_) % queue_.size()] = Pending{&inst, addrs, warp};
  ++queued_;
  ++counters_->mem_insts;
}

// Latencies are load-to-use from issue; the access stage runs the cycle after
// issue at the earliest, so `now - 1 + latency` (and never before next cycle).
uint64_t LdstUnit::after(uint64_t ready, uint64_t now) { return std::max(ready, now + 1); }

bool LdstUnit::is_direct(const InstRecord& in) const {
  return !l1d_ || !cfg_.l1d_enabled || (in.flags & (trace::kFlagBypassL1 | trace::kFlagAtomic));
}

// ---- stage: responses from below -------------------------------------------------

bool LdstUnit::deliver(uint64_t now) {
  bool any = false;
  while (responses_.due(now)) {
    if (l1d_ && !l1d_->can_fill()) break;  // retry once the miss queue drains
    MemResponse r = responses_.pop();
    any = true;
    if (r.token & kDirect) {
      slots_.done(r.token & ~kDirect, 1, now, *completions_);
      continue;
    }
    for (uint32_t s = 0; s < 8; ++s) {
      if (!(r.sector_mask & (1u << s))) continue;
      for (const cache::CacheRequest& w : l1d_->fill(r.line_addr, s, now))
        if (!cache::is_write(w.type)) slots_.done(w.tag, 1, now, *completions_);
    }
  }
  return any;
}

// ---- stage: accesses of the head instruction ------------------------------------

void LdstUnit::pop_head() {
  head_ = (head_ + 1) % queue_.size();
  --queued_;
}

bool LdstUnit::access(uint64_t now) {
  if (now < busy_until_) return false;
  if (!busy_) {
    if (queued_ == 0) return false;
    Pending p = queue_[head_];
    pop_head();
    start(p, now);
    if (!busy_) return true;  // shared / constant / empty: done at start
  }
  return is_direct(*cur_.inst) ? direct_step(now) : banked_steps(now);
}

// Up to one line request per L1D bank per cycle, in order; stops at the first
// request whose bank is already taken this cycle.
bool LdstUnit::banked_steps(uint64_t now) {
  uint32_t used = 0, banks = uint32_t(std::max<int64_t>(1, cfg_.l1d_banks));
  bool any = false;
  while (busy_) {
    uint32_t bank = uint32_t(reqs_[next_req_].line_addr / uint64_t(cfg_.l1d_line)) % banks;
    if (used & (1u << bank)) break;
    used |= 1u << bank;
    bool finished = global_step(now);
    any |= finished || done_sectors_ != 0;
    if (!finished) break;
  }
  return any;
}

void LdstUnit::start(const Pending& p, uint64_t now) {
  const InstRecord& in = *p.inst;
  bool store_like = in.dst == trace::kNoReg;  // acknowledged, not written back
  uint32_t slot = slots_.open(p.warp, in.dst, store_like);
  if (in.active_mask == 0 || !(in.flags & trace::kFlagHasAddrs)) {
    slots_.expect(slot, 1);
    slots_.done(slot, 1, now + 1, *completions_);
    return;
  }
  if (in.mem_space == trace::kMemShared) return start_shared(p, slot, now);
  if (in.mem_space == trace::kMemConst) return start_const(p, slot, now);
  nreq_ = coalesce(in.active_mask, in.access_bytes, p.addrs, coalescer_,
                   std::span<CoalescedRequest, kMaxCoalescedRequests>(reqs_));
  uint32_t sectors = 0;
  for (uint32_t i = 0; i < nreq_; ++i) sectors += std::popcount(reqs_[i].sector_mask);
  // Direct requests are answered per line request, L1D accesses per sector.
  slots_.expect(slot, is_direct(in) ? nreq_ : sectors);
  if (nreq_ == 0) {
    slots_.expect(slot, 1);
    slots_.done(slot, 1, now + 1, *completions_);
    return;
  }
  cur_ = p;
  cur_slot_ = slot;
  next_req_ = 0;
  done_sectors_ = 0;
  busy_ = true;
}

void LdstUnit::start_shared(const Pending& p, uint32_t slot, uint64_t now) {
  const InstRecord& in = *p.inst;
  uint32_t cycles = std::max<uint32_t>(1, shared_bank_cycles(in.active_mask, in.access_bytes,
                                                              p.addrs, uint32_t(cfg_.shmem_banks)));
  ++counters_->shmem_accesses;
  counters_->shmem_bank_cycles += cycles;
  busy_until_ = now + cycles;
  slots_.expect(slot, 1);
  slots_.done(slot, 1, after(now + uint64_t(cfg_.shmem_latency) + cycles - 2, now), *completions_);
}

void LdstUnit::start_const(const Pending& p, uint32_t slot, uint64_t now) {
  ++counters_->const_accesses;
  busy_until_ = now + 1;
  slots_.expect(slot, 1);
  slots_.done(slot, 1, after(now + uint64_t(cfg_.l1c_hit_latency) - 1, now), *completions_);
}

// Bypass, atomics, no L1D: one request per coalesced line straight below.
bool LdstUnit::direct_step(uint64_t now) {
  const CoalescedRequest& r = reqs_[next_req_];
  const InstRecord& in = *cur_.inst;
  uint8_t kind = (in.flags & trace::kFlagAtomic) ? kMemAtomic
                 : (in.flags & trace::kFlagStore) ? kMemWrite : kMemRead;
  MemRequest req{r.line_addr, cur_slot_ | kDirect, sm_, r.sector_mask, kind};
  if (!below_->send(req, now)) return false;
  if (kind == kMemRead) counters_->l1d_bypass += std::popcount(r.sector_mask);
  if (++next_req_ == nreq_) busy_ = false;
  return true;
}

// Through L1D: the sectors of one line request per cycle.
bool LdstUnit::global_step(uint64_t now) {
  const CoalescedRequest& r = reqs_[next_req_];
  const InstRecord& in = *cur_.inst;
  bool store = in.flags & trace::kFlagStore;
  bool local = in.mem_space == trace::kMemLocal;
  cache::AccessType type = store ? (local ? cache::AccessType::LOCAL_W : cache::AccessType::GLOBAL_W)
                                 : (local ? cache::AccessType::LOCAL_R : cache::AccessType::GLOBAL_R);
  uint32_t sector_bytes = uint32_t(cfg_.l1d_sector);
  for (uint32_t s = 0; s < 8; ++s) {
    uint8_t bit = uint8_t(1u << s);
    if (!(r.sector_mask & bit) || (done_sectors_ & bit)) continue;
    cache::CacheRequest cr;
    cr.line_addr = r.line_addr;
    cr.bytes = r.bytes & ByteMask::range(s * sector_bytes, sector_bytes);
    if (cr.bytes.none()) cr.bytes = ByteMask::range(s * sector_bytes, sector_bytes);
    cr.tag = cur_slot_;
    cr.type = type;
    cr.sector = uint8_t(s);
    cache::AccessResult res = l1d_->access(cr, now);
    if (res.outcome == cache::Outcome::RESERVATION_FAIL) {
      ++counters_->l1d_reservation_fails;
      return false;  // retry next cycle
    }
    done_sectors_ |= bit;
    if (store) {
      ++counters_->l1d_writes;
      if (!write_through_)  // write-back: the L1D takes the store
        slots_.done(cur_slot_, 1, after(now + uint64_t(cfg_.l1d_hit_latency) - 1, now), *completions_);
    } else if (res.outcome == cache::Outcome::HIT) {
      ++counters_->l1d_hits;
      slots_.done(cur_slot_, 1, after(now + uint64_t(cfg_.l1d_hit_latency) - 1, now), *completions_);
    } else {
      ++counters_->l1d_misses;
      if (res.outcome == cache::Outcome::MSHR_HIT || res.outcome == cache::Outcome::HIT_RESERVED)
        ++counters_->l1d_mshr_merges;
    }
  }
  done_sectors_ = 0;
  if (++next_req_ == nreq_) busy_ = false;
  return true;
}

// ---- stage: L1D miss queue -> below ---------------------------------------------

bool LdstUnit::send(uint64_t now) {
  if (!l1d_) return false;
  auto& q = l1d_->miss_queue();
  if (!q.front_ready(now)) return false;
  const cache::OutRequest& out = q.front();
  uint8_t kind = out.write ? kMemWrite : kMemRead;
  uint32_t token = out.write ? (out.tag | kDirect) : 0;
  MemRequest req{out.line_addr, token, sm_, out.sector_mask, kind};
  if (!below_->send(req, now)) return false;
  q.pop();
  return true;
}

// ---- scheduling helpers -----------------------------------------------------------

uint64_t LdstUnit::next_event(uint64_t now) const {
  uint64_t next = responses_.next_ready();
  if (busy_ || queued_ > 0) next = std::min(next, std::max(now + 1, busy_until_));
  if (l1d_ && !l1d_->miss_queue().empty())
    next = std::min(next, std::max(now + 1, l1d_->miss_queue().front_ready_cycle()));
  return next;
}

bool LdstUnit::idle() const {
  return !busy_ && queued_ == 0 && responses_.empty() && slots_.in_use() == 0 &&
         (!l1d_ || l1d_->miss_queue().empty());
}

std::string LdstUnit::describe() const {
  std::string s = "ldst: " + std::to_string(queued_) + " queued, " +
                  std::to_string(slots_.in_use()) + " memory instructions in flight, " +
                  std::to_string(responses_.size()) + " responses pending";
  if (responses_.size()) s += " (next at cycle " + std::to_string(responses_.next_ready()) + ")";
  if (l1d_) s += ", L1D miss queue " + std::to_string(l1d_->miss_queue().size());
  if (busy_) s += ", accessing request " + std::to_string(next_req_) + "/" + std::to_string(nreq_);
  return s;
}

}  // namespace accelsim::ldst
