// A workload in progress: a fresh GPU and a command list, advanced one kernel
// at a time so that a caller (Python) regains control between kernels.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/gpu.h"
#include "sim/run_result.h"
#include "trace/isa_table.h"
#include "trace/trace_reader.h"

namespace accelsim::sim {

class WorkloadRun {
 public:
  WorkloadRun(const config::GpuConfig& cfg, std::shared_ptr<const trace::IsaRegistry> isa,
              const std::string& path, const RunOptions& opts);
  // Applies the commands up to and including the next kernel, which runs to
  // completion. False when no kernel was left or the cycle budget ran out.
  bool step();
  bool done() const { return done_; }
  const RunResult& result() const { return result_; }
  // The most recent kernel's record (valid after a step that returned true).
  const stats::KernelRecord& last_kernel() const { return result_.kernels.back(); }

 private:
  std::shared_ptr<const trace::IsaRegistry> isa_;
  Gpu gpu_;
  std::vector<trace::Command> commands_;
  size_t next_ = 0;
  RunOptions opts_;
  RunResult result_;
  bool done_ = false;
};

}  // namespace accelsim::sim
