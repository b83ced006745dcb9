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
#include "sim/run_result.h"
#include "sim/workload_run.h"
#include "stats/kernel_record.h"
#include "isa/isa_table.h"

namespace accelsim::sim {

class Simulator {
 public:
  Simulator(const config::GpuConfig& cfg, const std::string& isa_dir);

  const config::GpuConfig& config() const { return cfg_; }
  // A kernelslist.g (commands in order) or a single kernel-N.traceg.
  RunResult run(const std::string& path, const RunOptions& opts = {});
  // The same, one kernel per WorkloadRun::step() (the run owns its GPU).
  std::unique_ptr<WorkloadRun> start(const std::string& path, const RunOptions& opts = {});
  // Kernels given directly, scheduled by their streams like a command list.
  RunResult run(std::vector<std::unique_ptr<KernelSource>>& kernels, const RunOptions& opts = {});
  // A workload built by the caller (kernels with sources, copies).
  RunResult run(Workload workload, const RunOptions& opts = {});

 private:
  std::shared_ptr<const isa::IsaRegistry> isa();  // loaded once, on first use

  config::GpuConfig cfg_;
  std::shared_ptr<isa::IsaRegistry> isa_;
  std::once_flag isa_once_;
  std::string isa_dir_;
};

}  // namespace accelsim::sim
