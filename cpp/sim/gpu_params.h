// What the GPU's own run loop and launch path use (its parts are built from
// parameters of their own: SmParams, the memory model's). gpu_params()
// derives it from a GpuConfig, which the GPU reads only while it is built.
#pragma once
#include <cstdint>

#include "sim/occupancy.h"

namespace accelsim::config {
struct GpuConfig;
}

namespace accelsim::sim {

struct GpuParams {
  uint32_t sms = 1;
  bool concurrent_kernels_per_sm = false;  // CTAs of different kernels may share an SM
  uint32_t max_concurrent_kernels = 128;   // launch window of a workload run
  uint64_t kernel_launch_latency = 0;      // core cycles from a launch to its first CTA
  uint64_t deadlock_cycles = 200000;
  uint64_t livelock_window_cycles = 2000000;
  unsigned threads = 1;                    // resolved: 1 = SMs tick in sequence
  bool adaptive_threads = false;           // `threads: 0`: back off while sequential is faster
  uint64_t core_period_ps = 1000;
  OccupancyParams occupancy;

  uint32_t max_warps_per_sm() const { return occupancy.max_threads_per_sm / occupancy.warp_size; }
};

GpuParams gpu_params(const config::GpuConfig& cfg);

}  // namespace accelsim::sim
