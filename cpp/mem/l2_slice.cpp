#include "mem/l2_slice.h"

#include <algorithm>
#include <bit>

#include "base/mem_port.h"
#include "base/sector_granules.h"

namespace accelsim::mem {

using cache::AccessType;
using cache::Outcome;

L2Slice::L2Slice(const cache::CacheParams& p, uint32_t queue_entries, uint32_t rop_cycles, uint32_t id,
                 const L2SliceTiming& timing)
    : cache_(p),
      id_(id),
      fetch_on_write_(p.write_alloc == cache::WriteAllocPolicy::FETCH_ON_WRITE),
      rop_(queue_entries + rop_cycles + 1),
      fills_(queue_entries + 8),
      // A fill may finish every request merged on the sector at once.
      done_(queue_entries + p.mshr_max_merge),
      far_done_(timing.far_cycles ? queue_entries + p.mshr_max_merge : 0),
      timing_(timing) {
  const uint32_t sector = p.sector_bytes;
  timing_.bytes_per_cycle = std::max(timing_.bytes_per_cycle, 1u);
  fills_per_cycle_ = std::max(1u, (timing_.bytes_per_cycle + sector - 1) / sector);
}

bool L2Slice::tick(uint64_t now, uint64_t t_ps, RequestPool& pool) {
  bool moved = false;
  for (uint32_t i = 0; i < fills_per_cycle_ && do_fill(now, t_ps, pool); ++i) moved = true;
  // Credit accrues over the cycles since the last top-up (an idle slice is
  // not ticked). Only a fraction of a sector carries over a cycle in which
  // the slice had no request or could not serve it: waiting buys no burst.
  const uint64_t sector = cache_.params().sector_bytes, rate = timing_.bytes_per_cycle;
  const uint64_t cycles = now + 1 - std::min(now + 1, credit_cycle_);
  credit_ = std::min(sector - 1 + rate, credit_ + cycles * rate);
  credit_cycle_ = now + 1;
  while (credit_ >= sector) {
    if (!rop_.front_ready(t_ps) || !do_access(now, pool)) {
      credit_ = std::min(credit_, sector - 1);
      break;
    }
    credit_ -= sector;
    moved = true;
  }
  if (moved) ++counters_.busy_cycles;
  return moved;
}

bool L2Slice::far_from(uint16_t sm) const {
  return timing_.far_cycles > 0 && sm < kCopyReadSource &&
         (sm >= timing_.first_upper_sm) != timing_.upper_half;
}

// A sector came back from DRAM: the cache marks it readable and hands back the
// requests merged on it. The L2 allocates lines on miss (not streaming), so a
// fill never evicts and needs no miss-queue slot.
bool L2Slice::do_fill(uint64_t now, uint64_t t_ps, RequestPool& pool) {
  if (!fills_.front_ready(t_ps)) return false;
  if (done_.free_slots() < cache_.params().mshr_max_merge) return false;
  if (timing_.far_cycles && far_done_.free_slots() < cache_.params().mshr_max_merge) return false;
  const FillItem f = fills_.front();
  fills_.pop();
  ++counters_.fills;
  const uint32_t sector_bytes = cache_.params().sector_bytes;
  for (const cache::CacheRequest& w : cache_.fill(f.line_addr, f.sector, now)) {
    const InFlight& r = pool[w.tag];
    if (r.kind == kMemAtomic) apply_atomic(r, w.sector, now);
    served(w.tag, uint8_t(granules_of_sector(w.sector, sector_bytes) & r.sector_mask), pool, now, true);
  }
  return true;
}

// The head request presents its next sector to the cache. Requests carry
// 32 B granules; the cache's sector holding the first granule left is
// accessed, serving every granule of the request inside it (all of them at
// once for a non-sectored L2).
bool L2Slice::do_access(uint64_t now, RequestPool& pool) {
  if (done_.full()) return false;
  const uint32_t id = rop_.front();
  InFlight& r = pool[id];
  const uint8_t left = uint8_t(r.sector_mask & ~r.issued);
  const uint32_t sector_bytes = cache_.params().sector_bytes;
  const uint32_t s = uint32_t(std::countr_zero(left)) * kGranuleBytes / sector_bytes;
  const uint8_t bit = uint8_t(granules_of_sector(s, sector_bytes) & r.sector_mask);
  const ByteMask sector = ByteMask::range(s * sector_bytes, sector_bytes);
  const bool write = r.kind == kMemWrite;

  cache::CacheRequest cr;
  cr.line_addr = r.line_addr;
  cr.sector = uint8_t(s);
  cr.tag = id;
  cr.stream = r.stream;
  cr.type = write ? AccessType::GLOBAL_W : AccessType::GLOBAL_R;
  cr.bytes = write ? (r.bytes & sector) : sector;
  if (cr.bytes.none()) cr.bytes = sector;
  const cache::AccessResult res = cache_.access(cr, now);
  if (res.outcome == Outcome::RESERVATION_FAIL) {
    ++counters_.access_stalls;
    return false;
  }
  ++counters_.sector_accesses;
  if (r.issued == 0) ++counters_.requests;
  r.issued |= bit;
  bool now_served;
  if (write) {
    // Write-validate (and any write hit) completes at once; fetch-on-write
    // misses wait in the MSHR for their sector.
    now_served = !(fetch_on_write_ && (res.outcome == Outcome::MISS || res.outcome == Outcome::SECTOR_MISS ||
                                       res.outcome == Outcome::MSHR_HIT));
  } else {
    now_served = res.outcome == Outcome::HIT;
    if (now_served && r.kind == kMemAtomic) apply_atomic(r, s, now);
  }
  if (r.issued == r.sector_mask) rop_.pop();
  if (now_served) served(id, bit, pool, now);
  return true;
}

void L2Slice::served(uint32_t id, uint8_t granules, RequestPool& pool, uint64_t now, bool filled) {
  InFlight& r = pool[id];
  r.pending &= uint8_t(~granules);
  if (r.pending != 0) return;
  if (filled && far_from(r.sm))
    far_done_.push(id, now + timing_.far_cycles);
  else
    done_.push(id, now);
}

// Atomics execute at L2: once the sector is readable the result is written
// back into it (the line becomes modified).
void L2Slice::apply_atomic(const InFlight& r, uint32_t sector, uint64_t now) {
  const uint32_t sector_bytes = cache_.params().sector_bytes;
  cache::CacheRequest w;
  w.line_addr = r.line_addr;
  w.sector = uint8_t(sector);
  w.type = AccessType::GLOBAL_W;
  w.stream = r.stream;
  w.bytes = r.bytes & ByteMask::range(sector * sector_bytes, sector_bytes);
  if (w.bytes.none()) w.bytes = ByteMask::range(sector * sector_bytes, sector_bytes);
  cache_.access(w, now);  // a write hit on a readable sector: never fails
  ++counters_.atomics;
  if (atomics_by_stream_) ++atomics_by_stream_[r.stream];
}

uint64_t L2Slice::next_event_ps(uint64_t t_ps, uint64_t period_ps) const {
  uint64_t next = UINT64_MAX;
  const uint64_t soon = t_ps + period_ps;
  if (!done_.empty()) next = soon;  // waits for the reply network
  if (!far_done_.empty()) next = std::min(next, std::max(soon, far_done_.front_ready_cycle() * period_ps));
  if (!fills_.empty()) next = std::min(next, std::max(soon, fills_.front_ready_cycle()));
  if (!rop_.empty()) next = std::min(next, std::max(soon, rop_.front_ready_cycle()));
  return next;
}

}  // namespace accelsim::mem
