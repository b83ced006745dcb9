#include "sim/simulator.h"

#include "sim/gpu.h"

namespace accelsim::sim {

Simulator::Simulator(const config::GpuConfig& cfg, const std::string& isa_dir)
    : cfg_(cfg), isa_dir_(isa_dir) {
  config::validate(cfg_);
}

const trace::IsaRegistry& Simulator::isa() {
  std::call_once(isa_once_, [this] {  // the config's opcode -> unit overrides apply
    isa_ = std::make_shared<trace::IsaRegistry>(isa_dir_, cfg_.opcode_units);
  });
  return *isa_;
}

RunResult Simulator::empty_result() const {
  RunResult r;
  r.max_warps_per_sm = uint32_t(cfg_.max_threads_per_sm / cfg_.warp_size);
  r.sm_count = uint32_t(cfg_.sm_count);
  r.core_period_ps = ClockDomains(cfg_).period_ps(ClockDomains::kCore);
  return r;
}

RunResult Simulator::run(const std::string& path, const RunOptions& opts) {
  const trace::IsaRegistry& registry = isa();
  std::vector<trace::Command> commands = trace::read_command_list(path);
  Gpu gpu(cfg_);
  RunResult result = empty_result();
  for (const trace::Command& c : commands) {
    if (c.kind == trace::Command::Kind::MemcpyHtoD) {
      gpu.memcpy_to_device(c.address, c.bytes);
      continue;
    }
    if (c.kind != trace::Command::Kind::Kernel) continue;
    TraceKernelSource src(c.kernel_path, registry);
    result.kernels.emplace_back();
    if (!gpu.run_kernel(src, result.kernels.back(), opts.max_cycles)) {
      result.completed = false;
      break;
    }
  }
  result.total_cycles = gpu.now();
  return result;
}

RunResult Simulator::run(std::vector<std::unique_ptr<KernelSource>>& kernels, const RunOptions& opts) {
  Gpu gpu(cfg_);
  RunResult result = empty_result();
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
