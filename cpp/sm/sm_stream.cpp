// Streamed thread blocks (PTX mode): a warp's records arrive in chunks. A
// warp that issues past its low-water mark marks its CTA hungry; between
// cycles (serially: producing records may write device memory) the CTA's
// stream drops the records nothing references any more and tops its warps
// up to a chunk ahead. Records move when their buffer is compacted or grows, so the warps'
// windows and the LD/ST unit's pointers into them are re-based here.
#include "sm/sm.h"

namespace accelsim::sm {

void Sm::take_window(Warp& w, const isa::WarpWindow& win) {
  w.insts = win.insts;
  w.head_clear = 0;  // the head is looked at again in its new place
  subcores_[w.scheduler].blocked = false;
  ctas_[w.cta_slot].warp_addrs[w.warp_in_cta] = win.addrs;
  w.count = win.count;
  w.end = win.more ? UINT32_MAX : win.count;
  if (!win.more) {
    w.refill_at = UINT32_MAX;
    return;
  }
  // Ask for more once fewer than low-water records are left. The mark is
  // looked at when the instruction buffer empties (not per instruction), so
  // it is placed a buffer earlier; a warp with nothing left asks at once.
  const uint64_t margin = uint64_t(ctas_[w.cta_slot].stream->low_water()) + p_.fetch.ibuffer_entries;
  const uint32_t at = w.count > margin ? uint32_t(w.count - margin) : 0;
  w.refill_at = std::min(w.count, std::max(w.next_issue + 1, at));
}

void Sm::refill(Cycle now) {
  for (size_t i = 0; i < hungry_.size(); ++i) {  // refill_cta never adds to hungry_
    Cta& c = ctas_[hungry_[i]];
    c.hungry = false;
    if (c.active && c.stream) refill_cta(hungry_[i], now);
  }
  hungry_.clear();
}

void Sm::refill_cta(uint16_t cslot, Cycle now) {
  Cta& c = ctas_[cslot];
  const uint32_t n = c.trace.num_warps();
  uint64_t issued[32] = {}, keep[32] = {};  // only n are read; zeroed so GCC can see that
  isa::WarpWindow before[32];
  for (uint32_t k = 0; k < n; ++k) {
    const uint16_t slot = c.warp_slots[k];
    const Warp& w = warps_[slot];
    before[k] = c.stream->window(k);
    issued[k] = before[k].first + w.next_issue;
    const isa::InstRecord* oldest = ldst_.oldest_of(slot);  // queued in the LD/ST unit
    keep[k] = oldest ? before[k].first + uint64_t(oldest - w.insts) : issued[k];
  }
  c.stream->refill(issued, keep);
  for (uint32_t k = 0; k < n; ++k) {
    const uint16_t slot = c.warp_slots[k];
    Warp& w = warps_[slot];
    if (w.finished) continue;
    const isa::WarpWindow after = c.stream->window(k);
    const bool dry = w.next_issue == w.count;
    const uint32_t shift = uint32_t(after.first - before[k].first);
    ldst_.relocate(slot, w.insts, after.insts, shift, c.warp_addrs[k], after.addrs,
                   uint32_t(after.first_addr - before[k].first_addr));
    w.next_issue -= shift;
    w.decoded_end -= shift;
    take_window(w, after);
    if (dry && w.next_issue < w.count) {  // it waited for these: fetch them now
      ++dry_waits_;
      fetch_.request(slot);
    }
  }
  // Warps whose stream ended with everything issued finish now (this may
  // retire the CTA, so last).
  for (uint32_t k = 0; k < n && c.active; ++k) maybe_finish(c.warp_slots[k]);
  wake_ = earliest(wake_, now + 1);
}

}  // namespace accelsim::sm
