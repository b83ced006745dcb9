// A workload in progress: a fresh GPU and the workload's commands, scheduled
// by stream. Commands are read in order into a launch window of at most
// max_concurrent_kernels kernels; a copy is applied when it is read; a kernel
// starts once no earlier kernel of its stream is unfinished, so kernels of
// one stream run in order and kernels of different streams overlap. Kernels
// not selected (RunOptions::kernels) are recorded as skipped, not simulated.
// step() returns whenever kernels finish, so a caller (Python) regains
// control between kernels.
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "sim/gpu.h"
#include "sim/run_result.h"
#include "sim/work_items.h"
#include "isa/isa_table.h"

namespace accelsim::sim {

class WorkloadRun {
 public:
  WorkloadRun(const config::GpuConfig& cfg, std::shared_ptr<const isa::IsaRegistry> isa,
              Workload workload, const RunOptions& opts);
  // Runs until at least one kernel finished. False when none was left (or
  // the cycle budget had already run out).
  bool step();
  bool done() const { return done_; }
  const RunResult& result() const { return result_; }
  // Records (indices into result().kernels) that finished in the last step.
  const std::vector<size_t>& last_finished() const { return finished_; }
  // The last of them (valid after a step that returned true).
  const stats::KernelRecord& last_kernel() const { return result_.kernels[finished_.back()]; }

 private:
  bool selected(const trace::KernelInfo& info) const;
  void admit();
  void launch_ready();
  size_t add_record(const WorkItem& item);
  void skip(stats::KernelRecord& rec, const WorkItem& item);
  bool finish_run();

  std::shared_ptr<const isa::IsaRegistry> isa_;
  Workload work_;
  RunOptions opts_;
  Gpu gpu_;
  RunResult result_;
  size_t next_ = 0;                       // next command to read
  struct Pending {
    size_t item, record;
  };
  std::deque<Pending> pending_;           // admitted kernels not launched yet
  std::vector<uint8_t> stream_busy_;      // per slot: a kernel of it is in flight
  std::vector<uint8_t> stream_blocked_;   // scratch for launch_ready (no allocation)
  std::vector<std::unique_ptr<KernelSource>> sources_;  // per record, while in flight
  std::vector<size_t> finished_;
  bool done_ = false;
};

}  // namespace accelsim::sim
