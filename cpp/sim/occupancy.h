// How many CTAs of a kernel fit on one SM, which limit binds, and the shared
// memory carve-out the adaptive L1 / shared split picks for it.
#pragma once
#include <cstdint>

#include "config/gpu_config.h"
#include "trace/trace_reader.h"

namespace accelsim::sim {

struct Occupancy {
  uint32_t ctas_per_sm = 0;
  const char* limiter = "";        // threads | warps | ctas | registers | shmem
  uint32_t warps_per_cta = 0;
  uint32_t threads_per_cta = 0;    // padded to whole warps
  uint32_t registers_per_cta = 0;  // after allocation granularity
  uint32_t shmem_carveout = 0;     // bytes of the unified SRAM given to shared memory
  double theoretical = 0;          // resident warps / max warps
};

// Throws ConfigError when one CTA cannot fit on an SM at all.
Occupancy compute_occupancy(const config::GpuConfig& cfg, const trace::KernelInfo& k);

}  // namespace accelsim::sim
