#include "sim/simulator.h"

#include "sim/gpu.h"

namespace accelsim::sim {

Simulator::Simulator(const config::GpuConfig& cfg, const std::string& isa_dir)
    : cfg_(cfg), isa_dir_(isa_dir) {
  config::validate(cfg_);
}

std::shared_ptr<const isa::IsaRegistry> Simulator::isa() {
  std::call_once(isa_once_, [this] {  // the config's opcode -> unit overrides apply
    isa_ = std::make_shared<isa::IsaRegistry>(isa_dir_, cfg_.opcode_units);
  });
  return isa_;
}

std::unique_ptr<WorkloadRun> Simulator::start(const std::string& path, const RunOptions& opts) {
  auto registry = isa();
  return std::make_unique<WorkloadRun>(cfg_, registry, workload_from_commands(path), opts);
}

RunResult Simulator::run(const std::string& path, const RunOptions& opts) {
  auto run = start(path, opts);
  while (run->step()) {
  }
  return run->result();
}

RunResult Simulator::run(std::vector<std::unique_ptr<KernelSource>>& kernels, const RunOptions& opts) {
  WorkloadRun run(cfg_, nullptr, workload_from_sources(kernels), opts);
  while (run.step()) {
  }
  return run.result();
}

RunResult Simulator::run(Workload workload, const RunOptions& opts) {
  WorkloadRun run(cfg_, nullptr, std::move(workload), opts);
  while (run.step()) {
  }
  return run.result();
}

}  // namespace accelsim::sim
