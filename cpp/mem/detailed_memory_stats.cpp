// The detailed memory model's per-stream statistics. Every event is counted
// where it happens, into the run's families, for the stream slot that the
// request carries from the SM:
//   l2.accesses / l2.fails  each slice's cache counts into its own row;
//   l2.atomics              atomics executed at each slice;
//   dram.ops                each channel: sectors read/written, activates
//                           and row hits, for the request that caused them
//                           (an L2 write-back: the access that evicted it);
//   icnt.flits              flits injected per direction;
//   icnt.stall_cycles       tries refused at injection: a request the SM must
//                           retry next core cycle, a reply a slice retries
//                           next L2 cycle.
#include "mem/detailed_memory.h"
#include "mem/memory_families.h"
#include "stats/mem_stat_slots.h"

namespace accelsim::mem {

void DetailedMemory::register_stats(stats::CounterRegistry& reg) {
  const uint32_t slots = uint32_t(reg.stream_slots());
  add_memory_families(reg, uint32_t(slices_.size()), uint32_t(parts_.size()));
  stats::CounterFamily& atomics =
      reg.add("l2.atomics", "l2", "sector", "Atomic operations executed at L2",
              {stats::instance_dim("slice", slices_.size()), stats::stream_dim(slots)});
  stats::CounterFamily& acc = *reg.find("l2.accesses");
  stats::CounterFamily& fails = *reg.find("l2.fails");
  for (size_t s = 0; s < slices_.size(); ++s) {
    slices_[s].cache().count_into(acc.slice({s}), fails.slice({s}), slots);
    slices_[s].count_atomics_into(atomics.slice({s}));
  }
  stats::CounterFamily& dram = *reg.find("dram.ops");
  for (size_t p = 0; p < parts_.size(); ++p) parts_[p].channel().count_streams_into(dram.slice({p}));
  flits_ = reg.find("icnt.flits")->data();
  stalls_ = reg.find("icnt.stall_cycles")->data();
}

void DetailedMemory::count_flits(uint8_t stream, stats::IcntDir dir, uint32_t bytes) {
  if (!flits_) return;
  const auto& net = dir == stats::IcntDir::REQUEST ? icnt_.request().config() : icnt_.reply().config();
  flits_[size_t(stream) * stats::kIcntDirs + size_t(dir)] += net.flits_for(bytes);
}

}  // namespace accelsim::mem
