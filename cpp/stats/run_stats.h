// Everything statistical one run leaves behind: the live counter families
// (final totals, every dimension) and the per-kernel table. Shared-owned so
// that the run result, and any Python view into the counters, keep it alive
// after the GPU that wrote it is gone.
#pragma once
#include <cstddef>
#include <memory>

#include "stats/counter_registry.h"
#include "stats/kernel_counters.h"

namespace accelsim::stats {

struct RunStats {
  explicit RunStats(size_t stream_slots) : registry(stream_slots) {}
  CounterRegistry registry;
  // Built after every component registered its families (see seal()).
  std::unique_ptr<KernelCounters> kernels;

  void seal() { kernels = std::make_unique<KernelCounters>(registry); }

  // What happened since `start` (a snapshot of this registry) as a RunStats
  // of its own: every family's counters minus the snapshot, the stream
  // dimension cut to the first `slots` slots, and the kernel-table rows from
  // `first_row` on (row 0 of the result). One GPU kept across several runs
  // (sim::GpuSession) gives each run its own statistics this way.
  std::shared_ptr<RunStats> since(const Snapshot& start, size_t first_row, size_t slots) const;
};

}  // namespace accelsim::stats
