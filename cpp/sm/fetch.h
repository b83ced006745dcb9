// Fetch/decode: refills the instruction buffers of warps whose buffer ran
// empty, a few warps per cycle, through the instruction cache (perfect, or a
// tag array whose misses add a fixed penalty).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "cache/tag_array.h"
#include "config/gpu_config.h"
#include "sm/warp.h"
#include "stats/sm_counters.h"

namespace accelsim::sm {

class FetchUnit {
 public:
  explicit FetchUnit(const config::GpuConfig& cfg);
  // One fetch cycle; returns true if any warp was fetched for.
  bool cycle(std::vector<Warp>& warps, uint64_t now, stats::SmCounters& counters);
  // The cycle a decoded instruction of `w` may issue, for a fetch at `now`.
  void invalidate();

 private:
  uint64_t fetch_latency(const Warp& w, uint64_t now, stats::SmCounters& counters);

  uint32_t width_, ibuffer_entries_;
  uint64_t miss_latency_;
  uint32_t rr_ = 0;
  std::unique_ptr<cache::TagArray> icache_;  // null = perfect
};

}  // namespace accelsim::sm
