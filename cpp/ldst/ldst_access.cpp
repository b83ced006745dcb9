// The access stage of the LD/ST unit: the head instruction's shared-memory,
// constant, bypass and L1D accesses.
#include <algorithm>
#include <bit>
#include <span>

#include "ldst/ldst_unit.h"
#include "base/bit_count.h"
#include "ldst/shared_banks.h"
#include "base/sector_granules.h"

namespace accelsim::ldst {

using isa::InstRecord;

// ---- stage: accesses of the head instruction ------------------------------------

void LdstUnit::pop_head() {
  head_ = (head_ + 1) % queue_.size();
  --queued_;
}

bool LdstUnit::access(Cycle now) {
  if (now < busy_until_) return false;
  if (!busy_) {
    if (queued_ == 0 || now < head_ready()) return false;
    Pending p = queue_[head_];
    pop_head();
    start(p, now);
    if (!busy_) return true;  // shared / constant / empty: done at start
  }
  return is_direct(*cur_.inst) ? direct_step(now) : banked_steps(now);
}

// Up to one line request per L1D bank per cycle, in order, and no more sector
// data than the L1D data port moves per cycle (l1d_bandwidth); stops at the
// first request whose bank is taken or that would exceed the port.
bool LdstUnit::banked_steps(Cycle now) {
  uint32_t used = 0, banks = p_.l1d_banks;
  uint32_t port_sectors = p_.l1d_port_sectors;
  uint32_t moved = 0;
  bool any = false;
  while (busy_) {
    const CoalescedRequest& r = reqs_[next_req_];
    uint32_t bank = uint32_t(r.line_addr / uint64_t(p_.coalescer.line_bytes)) % banks;
    uint32_t sectors = uint32_t(bit_count(uint32_t(r.sector_mask & ~done_sectors_)));
    if ((used & (1u << bank)) || (moved > 0 && moved + sectors > port_sectors)) break;
    used |= 1u << bank;
    moved += sectors;
    bool finished = global_step(now);
    any |= finished || done_sectors_ != 0;
    if (!finished) break;
  }
  return any;
}

// Global and local accesses with addresses pass the address (tag) stage;
// shared memory and constants have their own paths.
bool LdstUnit::tagged(const InstRecord& in) const {
  return in.active_mask != 0 && (in.flags & isa::kFlagHasAddrs) && in.mem_space != isa::kMemShared &&
         in.mem_space != isa::kMemConst;
}

// The first cycle the head instruction may start: a tagged one waits for the
// address stage to have taken the previous instructions' addresses (the
// first cycle c with (c + 1) x rate > addr_free_).
Cycle LdstUnit::head_ready() const {
  if (queued_ == 0 || !tagged(*queue_[head_].inst)) return Cycle(0);
  return Cycle(addr_free_ / p_.address_rate);
}

void LdstUnit::start(const Pending& p, Cycle now) {
  const InstRecord& in = *p.inst;
  bool store_like = in.dst == isa::kNoReg;  // acknowledged, not written back
  uint32_t slot = slots_.open(p.warp, in.dst, store_like);
  if (in.active_mask == 0 || !(in.flags & isa::kFlagHasAddrs)) {
    slots_.expect(slot, 1);
    slots_.done(slot, 1, now + 1, *completions_);
    return;
  }
  if (in.mem_space == isa::kMemShared) return start_shared(p, slot, now);
  if (in.mem_space == isa::kMemConst) return start_const(p, slot, now);
  addr_free_ = std::max(addr_free_, now.count() * p_.address_rate) + uint64_t(bit_count(in.active_mask));
  nreq_ = coalesce(in.active_mask, in.access_bytes, p.addrs, p_.coalescer,
                   std::span<CoalescedRequest, kMaxCoalescedRequests>(reqs_));
  uint32_t sectors = 0;
  for (uint32_t i = 0; i < nreq_; ++i) sectors += bit_count(reqs_[i].sector_mask);
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

void LdstUnit::start_shared(const Pending& p, uint32_t slot, Cycle now) {
  const InstRecord& in = *p.inst;
  uint32_t cycles = std::max<uint32_t>(1, shared_bank_cycles(in.active_mask, in.access_bytes,
                                                              p.addrs, p_.shmem_banks));
  stats::SmCounters& c = counters_[p.stream];
  ++c.shmem_accesses;
  c.shmem_bank_cycles += cycles;
  busy_until_ = now + cycles;
  slots_.expect(slot, 1);
  slots_.done(slot, 1, after(now + p_.shmem_latency + cycles - 2, now), *completions_);
}

void LdstUnit::start_const(const Pending& p, uint32_t slot, Cycle now) {
  ++counters_[p.stream].const_accesses;
  busy_until_ = now + 1;
  slots_.expect(slot, 1);
  slots_.done(slot, 1, after(now + const_latency(p, now) - 1, now), *completions_);
}

// Constant cache: a hit costs l1c_hit_latency; a miss also the trip to L2
// (a fixed cost: constants are few and read-shared).
uint64_t LdstUnit::const_latency(const Pending& p, Cycle now) {
  uint64_t hit = p_.l1c_hit_latency;
  if (!l1c_) return hit;
  uint32_t lane = uint32_t(std::countr_zero(p.inst->active_mask));
  uint64_t line_addr = l1c_->line_of(p.addrs[lane]);
  if (cache::LineMeta* line = l1c_->find(line_addr)) {
    l1c_->touch(*line, now);
    count_l1c(p.stream, true);
    return hit;
  }
  count_l1c(p.stream, false);
  if (cache::LineMeta* victim = l1c_->victim(line_addr)) {
    l1c_->install(*victim, line_addr, now);
    victim->readable = 0xff;
  }
  return hit + p_.l2_hit_latency;
}

// Bypass, atomics, no L1D: one request per coalesced line straight below.
bool LdstUnit::direct_step(Cycle now) {
  const CoalescedRequest& r = reqs_[next_req_];
  const InstRecord& in = *cur_.inst;
  uint8_t kind = (in.flags & isa::kFlagAtomic) ? kMemAtomic
                 : (in.flags & isa::kFlagStore) ? kMemWrite : kMemRead;
  const uint8_t granules = direct_granules(r);
  MemRequest req{r.line_addr, cur_slot_ | kDirect, sm_, granules, kind, cur_.stream, r.bytes};
  if (!below_->send(req, now)) return false;
  if (kind == kMemRead) counters_[cur_.stream].l1d_bypass += bit_count(granules);
  if (++next_req_ == nreq_) busy_ = false;
  return true;
}

// A request that skips the L1D moves the 32 B granules its bytes touch,
// widened to the configured fetch segment (the L1D's sector size plays no
// part: a bypassing load on a non-sectored-L1 GPU still moves 32 B segments).
uint8_t LdstUnit::direct_granules(const CoalescedRequest& r) const {
  const uint32_t per_segment = std::max<uint32_t>(kGranuleBytes, p_.direct_segment_bytes) / kGranuleBytes;
  const uint32_t granules = p_.coalescer.line_bytes / kGranuleBytes;
  const uint8_t seg_bits = uint8_t((1u << per_segment) - 1);
  uint8_t mask = 0;
  for (uint32_t g = 0; g < granules; g += per_segment)
    if (r.bytes.any_in(ByteMask::range(g * kGranuleBytes, per_segment * kGranuleBytes)))
      mask |= uint8_t(seg_bits << g);
  return mask ? mask : granules_of_sectors(r.sector_mask, p_.coalescer.sector_bytes);
}

// Through L1D: the sectors of one line request per cycle.
bool LdstUnit::global_step(Cycle now) {
  const CoalescedRequest& r = reqs_[next_req_];
  const InstRecord& in = *cur_.inst;
  bool store = in.flags & isa::kFlagStore;
  bool local = in.mem_space == isa::kMemLocal;
  cache::AccessType type = store ? (local ? cache::AccessType::LOCAL_W : cache::AccessType::GLOBAL_W)
                                 : (local ? cache::AccessType::LOCAL_R : cache::AccessType::GLOBAL_R);
  uint32_t sector_bytes = p_.coalescer.sector_bytes;
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
    cr.stream = cur_.stream;
    cache::AccessResult res = l1d_->access(cr, now);
    if (res.outcome == cache::Outcome::RESERVATION_FAIL) {
      ++counters_[cur_.stream].l1d_reservation_fails;
      return false;  // retry next cycle
    }
    done_sectors_ |= bit;
    if (store) {
      ++counters_[cur_.stream].l1d_writes;
      if (!write_through_)  // write-back: the L1D takes the store
        slots_.done(cur_slot_, 1, after(now + p_.l1d_hit_latency - 1, now), *completions_);
    } else if (res.outcome == cache::Outcome::HIT) {
      ++counters_[cur_.stream].l1d_hits;
      slots_.done(cur_slot_, 1, after(now + p_.l1d_hit_latency - 1, now), *completions_);
    } else {
      ++counters_[cur_.stream].l1d_misses;
      if (res.outcome == cache::Outcome::MSHR_HIT || res.outcome == cache::Outcome::HIT_RESERVED)
        ++counters_[cur_.stream].l1d_mshr_merges;
    }
  }
  done_sectors_ = 0;
  if (++next_req_ == nreq_) busy_ = false;
  return true;
}

}  // namespace accelsim::ldst
