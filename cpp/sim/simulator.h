// Top level: runs a workload (kernelslist.g, one kernel trace, or in-memory
// kernels) on a fresh GPU built from the config, and returns per-kernel
// records. Holds no global state; several may run in parallel threads.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "config/gpu_config.h"
#include "sim/kernel_source.h"
#include "stats/kernel_record.h"
#include "trace/isa_table.h"

namespace accelsim::sim {

struct RunOptions {
  uint64_t max_cycles = UINT64_MAX;  // stop the whole run at this core cycle
};

struct RunResult {
  std::vector<stats::KernelRecord> kernels;
  uint64_t total_cycles = 0;
  bool completed = true;     // false when max_cycles cut the run short
  uint32_t max_warps_per_sm = 0;
  uint32_t sm_count = 0;
  uint64_t core_period_ps = 0;
};

class Simulator {
 public:
  Simulator(const config::GpuConfig& cfg, const std::string& isa_dir);

  const config::GpuConfig& config() const { return cfg_; }
  // A kernelslist.g (commands in order) or a single kernel-N.traceg.
  RunResult run(const std::string& path, const RunOptions& opts = {});
  // Kernels given directly, run in order.
  RunResult run(std::vector<std::unique_ptr<KernelSource>>& kernels, const RunOptions& opts = {});

 private:
  RunResult empty_result() const;
  const trace::IsaRegistry& isa();  // loaded once, on first use

  config::GpuConfig cfg_;
  std::shared_ptr<trace::IsaRegistry> isa_;
  std::once_flag isa_once_;
  std::string isa_dir_;
};

}  // namespace accelsim::sim
