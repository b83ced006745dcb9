// Streamed thread blocks (PTX mode): a warp's records arrive in chunks. A
// warp that issues past its low-water mark marks its CTA hungry; between
// cycles (serially: producing records may write device memory) the CTA's
// stream drops the records nothing references any more and tops its warps
// up. Records move when their buffer is compacted or grows, so the warps'
// windows and the LD/ST unit's pointers into them are re-based here.
#include "sm/sm.h"

namespace accelsim::sm {

void Sm::take_window(Warp& w, const isa::WarpWindow& win) {
  w.insts = win.insts;
  w.addrs = win.addrs;
  w.count = win.count;
  w.more = win.more;
  const uint32_t low = ctas_[w.cta_slot].stream ? ctas_[w.cta_slot].stream->low_water() : 0;
  // Ask again once fewer than `low` records are left; a warp with nothing
  // more to take is asked for by the next refill of its CTA (a barrier).
  w.refill_at = !w.more ? UINT32_MAX : w.count > low && w.count - low > w.next_issue ? w.count - low
                                                                                    : w.next_issue + 1;
  if (w.refill_at > w.count && w.more) w.refill_at = UINT32_MAX;
}

void Sm::refill(uint64_t now) {
  for (size_t i = 0; i < hungry_.size(); ++i) {  // refill_cta never adds to hungry_
    Cta& c = ctas_[hungry_[i]];
    c.hungry = false;
    if (c.active && c.stream) refill_cta(hungry_[i], now);
  }
  hungry_.clear();
}

void Sm::refill_cta(uint16_t cslot, uint64_t now) {
  Cta& c = ctas_[cslot];
  const uint32_t n = c.trace.num_warps();
  uint64_t issued[32], keep[32];
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
    ldst_.relocate(slot, w.insts, after.insts, shift, w.addrs, after.addrs,
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
  wake_ = std::min(wake_, now + 1);
}

}  // namespace accelsim::sm
