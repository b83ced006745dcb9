// The GPU's side of intra-kernel sampling (WaveSampler): wave boundaries
// seen at CTA retirements, the counts shown to the sampler, the stop of a
// kernel's dispatch, and the clock moved on to a sampled kernel's projected
// end once it has drained.
#include <algorithm>
#include <cstddef>

#include "cache/cache_types.h"
#include "sim/gpu.h"
#include "stats/counter_reduce.h"
#include "stats/mem_stat_slots.h"

namespace accelsim::sim {

// What the slot counted so far: warp instructions, L2 sector accesses served
// (reservation fails are retries, not traffic), DRAM sectors moved.
WaveCounts Gpu::wave_counts(uint32_t slot) const {
  const stats::CounterRegistry& reg = stats_->registry;
  WaveCounts c;
  c.cycle = now_.count();
  const stats::CounterFamily& ev = reg.family(events_family_);
  c.warp_insts = stats::reduce_to_categories(ev, ev.values(), int(slot))[offsetof(stats::SmCounters, warp_insts) /
                                                                         sizeof(uint64_t)];
  if (l2_family_ != SIZE_MAX) {
    const stats::CounterFamily& l2 = reg.family(l2_family_);
    const std::vector<uint64_t> cells = stats::reduce_to_categories(l2, l2.values(), int(slot));
    for (size_t i = 0; i < cells.size(); ++i)
      if (i % cache::kOutcomes != size_t(cache::Outcome::RESERVATION_FAIL)) c.l2_accesses += cells[i];
  }
  if (dram_family_ != SIZE_MAX) {
    const stats::CounterFamily& d = reg.family(dram_family_);
    const std::vector<uint64_t> ops = stats::reduce_to_categories(d, d.values(), int(slot));
    if (ops.size() == size_t(stats::kDramOps))
      c.dram_ops = ops[size_t(stats::DramOp::READ)] + ops[size_t(stats::DramOp::WRITE)];
  }
  return c;
}

// Called after a cycle in which CTAs retired. A kernel whose waves are
// steady stops dispatching, but only while it is alone on the GPU (no other
// kernel or copy shares the time it would skip).
void Gpu::sample_waves() {
  for (Active& a : active_) {
    if (!a.sampler || a.stopped) continue;
    const uint64_t retired = a.kernel->dispatched - a.kernel->resident;
    while (!a.stopped && retired >= a.sampler->next_boundary()) {
      const bool steady = a.sampler->observe(wave_counts(a.rec->stream_slot), a.kernel->dispatched);
      if (steady && active_.size() == 1 && watch_copies_ == 0 && !copying(false) && !copying(true)) {
        dispatcher_.stop(*a.kernel);
        a.stopped = true;
      }
    }
  }
}

namespace {

// One record's global and local accesses into the caches below L1
// (MemPort::warm); lanes whose bytes follow each other go down as one range.
void warm_record(MemPort& below, const isa::InstRecord& r, const uint64_t* lanes, Cycle now) {
  if ((r.mem_space != isa::kMemGlobal && r.mem_space != isa::kMemLocal) || !(r.flags & isa::kFlagHasAddrs)) return;
  const bool write = (r.flags & (isa::kFlagStore | isa::kFlagAtomic)) != 0;
  uint64_t begin = 0, end = 0;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(r.active_mask >> lane & 1u)) continue;
    const uint64_t a = lanes[lane];
    if (a != end) {
      if (end > begin) below.warm(begin, uint32_t(end - begin), write, now);
      begin = a;
    }
    end = a + r.access_bytes;
  }
  if (end > begin) below.warm(begin, uint32_t(end - begin), write, now);
}

// The functional tail's accesses into L2, each CTA's at the cycle the
// projection gives it (`at`): replacement then keeps the grid's last lines,
// as the full run would; accesses all at one cycle tie, and the set's first
// way would be replaced over and over, keeping the tail's first lines.
class WarmSink final : public isa::AccessSink {
 public:
  explicit WarmSink(MemPort& below) : below_(below) {}
  void at(Cycle now) { now_ = now; }
  void access(const isa::InstRecord& r, const uint64_t* lanes) override { warm_record(below_, r, lanes, now_); }

 private:
  MemPort& below_;
  Cycle now_{0};
};

}  // namespace

void Gpu::warm_caches(KernelSource& src) {
  trace::ThreadBlockTrace tb;
  while (src.next_block(tb))
    for (const isa::InstRecord& r : tb.insts)
      if (r.flags & isa::kFlagHasAddrs) warm_record(*below_, r, tb.addrs.data() + r.addr_offset, now_);
}

// Sampled kernels that drained with CTAs never dispatched whose blocks have
// effects run those now (run_tail). False when one was cut short: every
// kernel in flight is then cut off.
bool Gpu::run_skipped_ctas(Cycle cycle_limit, Poller* poller) {
  for (Active& a : active_) {
    if (!a.stopped || a.tail_done || !a.kernel->finished() || !a.kernel->src->has_effects()) continue;
    if (run_tail(a, cycle_limit, poller)) continue;
    for (Active& b : active_) finish(b, false);
    return false;
  }
  return true;
}

// The CTAs a stopped kernel never dispatched, in dispatch order, run for
// their effects at no simulated time (their time is the projection's).
// Ctrl-C is polled between and inside CTAs. The budget: only the CTAs the
// projection starts before `cycle_limit` run, and the clock stops there.
bool Gpu::run_tail(Active& a, Cycle cycle_limit, Poller* poller) {
  KernelSource& src = *a.kernel->src;
  const uint64_t from = a.kernel->dispatched, grid = src.info().grid.count();
  const Projection p = a.sampler->project(from, now_.count());
  // CTA i of the tail starts at now + (i - from) x span / (grid - from), the projected time spread evenly.
  const double span = double(p.end_cycle > now_.count() ? p.end_cycle - now_.count() : 0);
  const double per_cta = span / double(grid - from);
  uint64_t end = grid;
  if (Cycle(p.end_cycle) > cycle_limit) end = from + uint64_t(double(cycle_limit - now_) / per_cta);
  WarmSink sink(*below_);
  for (uint64_t i = from + a.tail_ran; i < end; ++i, ++a.tail_ran) {
    if (poller && poller->check_now()) return false;
    sink.at(now_ + uint64_t(double(i - from) * per_cta));
    if (!src.run_effects(i, intra_.warm_tail ? &sink : nullptr)) return false;
  }
  if (end < grid) {
    now_ = cycle_limit;
    return false;
  }
  a.tail_done = true;
  return true;
}

// A sampled kernel finished its simulated part: the GPU is idle until its
// projected end (no other kernel was in flight), so the clock moves there.
// False when that is past the budget (the clock stops at the budget).
bool Gpu::jump_to_projected_end(Cycle cycle_limit) {
  const Cycle to(projected_end_);
  projected_end_ = 0;
  if (to <= now_) return true;
  now_ = earliest(to, cycle_limit);
  return now_ < cycle_limit;
}

}  // namespace accelsim::sim
