#include "sim/workload_run.h"

namespace accelsim::sim {

WorkloadRun::WorkloadRun(const config::GpuConfig& cfg, std::shared_ptr<const trace::IsaRegistry> isa,
                         const std::string& path, const RunOptions& opts)
    : isa_(std::move(isa)),
      gpu_(cfg),
      commands_(trace::read_command_list(path)),
      opts_(opts),
      result_(empty_result(cfg)) {}

bool WorkloadRun::step() {
  while (!done_ && next_ < commands_.size()) {
    const trace::Command& c = commands_[next_++];
    if (c.kind == trace::Command::Kind::MemcpyHtoD) gpu_.memcpy_to_device(c.address, c.bytes);
    if (c.kind != trace::Command::Kind::Kernel) continue;
    TraceKernelSource src(c.kernel_path, *isa_);
    result_.kernels.emplace_back();
    bool finished = gpu_.run_kernel(src, result_.kernels.back(), opts_.max_cycles);
    result_.total_cycles = gpu_.now();
    if (!finished) {
      result_.completed = false;
      done_ = true;
    }
    return true;
  }
  done_ = true;
  result_.total_cycles = gpu_.now();
  return false;
}

}  // namespace accelsim::sim
