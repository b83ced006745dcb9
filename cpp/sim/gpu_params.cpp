#include "sim/gpu_params.h"

#include "base/clocked.h"
#include "config/gpu_config.h"
#include "sim/parallel_sms.h"

namespace accelsim::sim {

GpuParams gpu_params(const config::GpuConfig& cfg) {
  GpuParams p;
  p.sms = uint32_t(cfg.sm_count);
  p.concurrent_kernels_per_sm = cfg.concurrent_kernels_per_sm;
  p.max_concurrent_kernels = uint32_t(cfg.max_concurrent_kernels);
  p.kernel_launch_latency = uint64_t(cfg.kernel_launch_latency);
  p.deadlock_cycles = uint64_t(cfg.deadlock_cycles);
  p.livelock_window_cycles = uint64_t(cfg.livelock_window_cycles);
  p.threads = resolve_threads(cfg.threads, cfg.sm_count);
  p.adaptive_threads = cfg.threads == 0;
  p.core_period_ps = period_ps_from_mhz(cfg.core_clock);
  p.occupancy = occupancy_params(cfg);
  return p;
}

}  // namespace accelsim::sim
