// CTA residency: occupancy checks, launch onto free warp slots, retirement.
#include <algorithm>
#include <atomic>

#include "sm/sm.h"

namespace accelsim::sm {

int Sm::free_cta_slot() const {
  for (size_t i = 0; i < ctas_.size(); ++i)
    if (!ctas_[i].active) return int(i);
  return -1;
}

int Sm::free_warp_slot(int from) const {
  for (size_t i = size_t(from); i < warps_.size(); ++i)
    if (!warps_[i].active) return int(i);
  return -1;
}

bool Sm::can_launch(const CtaShape& shape) const {
  return resident_ctas_ < std::min<uint32_t>(shape.max_ctas_per_sm, uint32_t(ctas_.size())) &&
         used_threads_ + shape.threads <= p_.max_threads &&
         used_warps_ + shape.warps <= max_warps_ &&
         used_regs_ + shape.registers <= p_.registers &&
         used_shmem_ + shape.shmem_bytes <= shmem_capacity_;
}

void Sm::launch(const CtaShape& shape, trace::ThreadBlockTrace& tb, Cycle now) {
  now_ = latest(now_, now);
  last_launch_ = now;
  launched_any_ = true;
  account(now);
  int cslot = free_cta_slot();
  Cta& c = ctas_[cslot];
  std::swap(c.trace, tb);
  c.shape = shape;
  c.active = true;
  c.at_barrier = 0;
  c.warps_alive = 0;
  c.hungry = false;
  c.stream = c.trace.stream.get();
  if (c.stream) {  // the first chunk of every warp
    uint64_t zero[32] = {};
    c.stream->refill(zero, zero);
  }
  int next = 0;
  for (uint32_t w = 0; w < c.trace.num_warps(); ++w) {
    int slot = free_warp_slot(next);
    next = slot + 1;
    Warp& warp = warps_[slot];
    warp = Warp{};
    warp.cta_slot = uint16_t(cslot);
    warp.warp_in_cta = uint16_t(w);
    if (c.stream) {
      take_window(warp, c.stream->window(w));
    } else {
      warp.insts = c.trace.insts.data() + c.trace.warp_begin[w];
      c.warp_addrs[w] = c.trace.addrs.data();
      warp.count = c.trace.warp_begin[w + 1] - c.trace.warp_begin[w];
      warp.end = warp.count;
    }
    warp.age = next_age_++;
    warp.decode_ready = now + p_.cta_launch_latency;  // CTA setup
    warp.scheduler = uint8_t(slot % subcores_.size());
    warp.stream = shape.stream;
    warp.active = true;
    warp.finished = warp.end == 0;
    c.warp_slots[w] = uint16_t(slot);
    if (!warp.finished) {
      ++c.warps_alive;
      subcores_[warp.scheduler].scheduler->add_warp(uint16_t(slot));
      fetch_.request(uint16_t(slot));
    }
    refresh_candidate(warp);
  }
  ++resident_ctas_;
  used_threads_ += shape.threads;
  used_warps_ += shape.warps;
  used_regs_ += shape.registers;
  used_shmem_ += shape.shmem_bytes;
  ++counters_[shape.stream].ctas_launched;
  slot_warps_[shape.stream] += shape.warps;
  ++slot_ctas_[shape.stream];
  tick_slot_ = shape.stream;
  wake_ = now;
  if (c.warps_alive == 0) retire_cta(uint16_t(cslot));
}

void Sm::retire_cta(uint16_t cslot) {
  account(now_);
  Cta& c = ctas_[cslot];
  for (uint32_t w = 0; w < c.trace.num_warps(); ++w) {
    warps_[c.warp_slots[w]].active = false;
    refresh_candidate(warps_[c.warp_slots[w]]);
  }
  c.active = false;
  c.stream = nullptr;
  c.trace.stream.reset();  // the emulator state goes now, not at the slot's next launch
  --resident_ctas_;
  used_threads_ -= c.shape.threads;
  used_warps_ -= c.shape.warps;
  used_regs_ -= c.shape.registers;
  used_shmem_ -= c.shape.shmem_bytes;
  // The kernel's count is shared by every SM, which may retire in parallel.
  if (c.shape.resident)
    std::atomic_ref<uint32_t>(*c.shape.resident).fetch_sub(1, std::memory_order_relaxed);
  slot_warps_[c.shape.stream] -= c.shape.warps;
  --slot_ctas_[c.shape.stream];
  ++retired_;
}

}  // namespace accelsim::sm
