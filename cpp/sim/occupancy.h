// How many CTAs of a kernel fit on one SM, which limit binds, and the shared
// memory carve-out the adaptive L1 / shared split picks for it.
#pragma once
#include <cstdint>
#include <vector>

#include "trace/trace_reader.h"

namespace accelsim::config {
struct GpuConfig;
}

namespace accelsim::sim {

// The SM's resources and limits that decide occupancy, and the L1 / shared
// split; occupancy_params() derives them from a GpuConfig.
struct OccupancyParams {
  uint32_t warp_size = 32;
  uint32_t max_threads_per_sm = 2048;
  uint32_t max_ctas_per_sm = 32;
  uint32_t registers_per_sm = 65536;
  uint32_t registers_per_cta = 65536;
  uint32_t register_allocation_unit = 256;
  uint64_t shmem_size = 98304;        // bytes an SM can give to shared memory
  uint64_t shmem_per_cta = 49152;
  uint64_t l1d_size = 32768;          // the L1D when the split is fixed
  bool adaptive_l1_shmem = false;     // the L1D gets what shared memory leaves
  uint64_t unified_l1_shmem_size = 0;
  std::vector<int64_t> shmem_carveouts;  // choices of the adaptive split (empty: shmem_size)
};

OccupancyParams occupancy_params(const config::GpuConfig& cfg);

struct Occupancy {
  uint32_t ctas_per_sm = 0;
  const char* limiter = "";        // threads | warps | ctas | registers | shmem
  uint32_t warps_per_cta = 0;
  uint32_t threads_per_cta = 0;    // padded to whole warps
  uint32_t registers_per_cta = 0;  // after allocation granularity
  uint32_t shmem_carveout = 0;     // bytes of the unified SRAM given to shared memory
  uint64_t l1d_bytes = 0;          // the L1D the kernel's SMs have beside that carve-out
  double theoretical = 0;          // resident warps / max warps
};

// Throws ConfigError when one CTA cannot fit on an SM at all.
Occupancy compute_occupancy(const OccupancyParams& p, const trace::KernelInfo& k);

}  // namespace accelsim::sim
