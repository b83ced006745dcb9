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
};

}  // namespace accelsim::stats
