#include "sim/simulator.h"

#include "sim/gpu.h"

namespace accelsim::sim {

Simulator::Simulator(const config::GpuConfig& cfg, const std::string& isa_dir)
    : cfg_(cfg), isa_dir_(isa_dir) {
  config::validate(cfg_);
}

std::shared_ptr<const trace::IsaRegistry> Simulator::isa() {
  std::call_once(isa_once_, [this] {  // the config's opcode -> unit overrides apply
    isa_ = std::make_shared<trace::IsaRegistry>(isa_dir_, cfg_.opcode_units);
  });
  return isa_;
}

RunResult empty_result(const config::GpuConfig& cfg) {
  RunResult r;
  r.max_warps_per_sm = uint32_t(cfg.max_threads_per_sm / cfg.warp_size);
  r.sm_count = uint32_t(cfg.sm_count);
  r.core_period_ps = ClockDomains(cfg).period_ps(ClockDomains::kCore);
  return r;
}

std::unique_ptr<WorkloadRun> Simulator::start(const std::string& path, const RunOptions& opts) {
  return std::make_unique<WorkloadRun>(cfg_, isa(), path, opts);
}

RunResult Simulator::run(const std::string& path, const RunOptions& opts) {
  auto run = start(path, opts);
  while (run->step()) {
  }
  return run->result();
}

RunResult Simulator::run(std::vector<std::unique_ptr<KernelSource>>& kernels, const RunOptions& opts) {
  Gpu gpu(cfg_);
  RunResult result = empty_result(cfg_);
  for (auto& k : kernels) {
    result.kernels.emplace_back();
    if (!gpu.run_kernel(*k, result.kernels.back(), opts.max_cycles)) {
      result.completed = false;
      break;
    }
  }
  result.total_cycles = gpu.now();
  return result;
}

}  // namespace accelsim::sim
