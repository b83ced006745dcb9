// A workload in progress: a fresh GPU and the workload's commands, scheduled
// by stream. Commands are read in order into a launch window of at most
// max_concurrent_kernels kernels; a synchronous copy runs when it is read,
// once all earlier work has finished; a kernel or an async copy starts once
// no earlier command of its stream is unfinished (and, for a copy, its
// direction's copy engine is free), so commands of one stream run in order
// and those of different streams overlap, copies with kernels included. Kernels
// not selected (RunOptions::kernels) are recorded as skipped, not simulated.
// step() returns whenever kernels finish, so a caller (Python) regains
// control between kernels; inside a step, the cycle budget is honoured at
// any cycle (copies included) and a poll hook (set_poll) may stop the run.
// A run cut short lists every kernel of the workload, each with its status
// (stats::KernelStatus).
// RunOptions may narrow the run to a window of commands, mark commands or
// kernels as warm-up (run, then left out of the result's counts), give every
// command a fresh GPU (flush: the run's clock is then the sum of the
// commands' own clocks, `epoch_`), and sample long kernels (Gpu).
#pragma once
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/run_guard.h"
#include "sim/gpu.h"
#include "sim/run_result.h"
#include "sim/work_items.h"
#include "isa/isa_table.h"

namespace accelsim::sim {

class WorkloadRun final : public RunGuard {
 public:
  // (opts.warmup and opts.replay are sorted here; the others are taken as given.)
  WorkloadRun(const config::GpuConfig& cfg, std::shared_ptr<const isa::IsaRegistry> isa,
              Workload workload, const RunOptions& opts);
  // On a GPU that may have run before (GpuSession): its clock, caches and
  // statistics go on; the workload's slots must be slots of gpu's stats.
  WorkloadRun(std::shared_ptr<Gpu> gpu, std::shared_ptr<const isa::IsaRegistry> isa, Workload&& workload,
              const RunOptions& opts);
  // Runs until at least one kernel finished. False when none was left (or
  // the cycle budget had already run out).
  bool step();
  bool done() const { return done_; }
  const RunResult& result() const { return result_; }
  // Records (indices into result().kernels) that finished in the last step.
  const std::vector<size_t>& last_finished() const { return finished_; }
  // The last of them (valid after a step that returned true).
  const stats::KernelRecord& last_kernel() const { return result_.kernels[finished_.back()]; }
  // `hook` is called about every `interval` of wall time from inside step()
  // (never per cycle) with what the run has done; returning true stops the
  // run where it is (result().interrupted). An empty hook turns polling off.
  using PollHook = std::function<bool(const Progress&)>;
  void set_poll(PollHook hook, std::chrono::milliseconds interval = std::chrono::milliseconds(50));
  Progress progress() const;
  // Ends the run between steps as an interrupt does inside one: kernels in
  // flight are cut off, the rest not reached. No-op once done.
  void interrupt();
  // RunGuard, for PTX emulation inside a step: the poll hook's verdict, and
  // the cycles left before the budget.
  // (emulation calls it every few thousand instructions: the clock is read each time)
  bool stop_requested() override { return poller_.stopped() || poller_.check_now(); }
  uint64_t cycles_left() const override {
    return opts_.max_cycles > now() ? opts_.max_cycles - now() : 0;
  }

 private:
  bool selected(const trace::KernelInfo& info) const;
  bool warm(size_t item) const;
  bool replayed(size_t item) const;
  bool idle() const { return pending_.empty() && gpu_->kernels_in_flight() == 0 && !copies_in_flight(); }
  // At a command: false when it must wait for the GPU to be idle first
  // (a flushed run, the start or end of warm-up); true once it may go on.
  bool ready_for(size_t item);
  void fresh_gpu();
  void warm_functionally(WorkItem& item);
  void set_warm(bool on);
  void finish_warmup();
  // The run's clock; the GPU's own runs from the GPU's birth (flush).
  uint64_t now() const { return epoch_ + gpu_->now().count(); }
  Cycle gpu_limit() const;
  void to_run_clock(stats::KernelRecord& rec) const;
  bool admit();
  void launch_ready();
  size_t add_record(const WorkItem& item);
  size_t add_copy(const WorkItem& item);
  void launch_copy(const WorkItem& item, size_t record);
  bool finish_copies();
  bool copies_in_flight() const { return copy_[0].active || copy_[1].active; }
  // The GPU's kernel loop also returns when an async copy under way ends.
  void watch_active_copies() { gpu_->watch_copies(uint8_t((copy_[0].active ? 1 : 0) | (copy_[1].active ? 2 : 0))); }
  void skip(stats::KernelRecord& rec, const WorkItem& item);
  bool finish_run();
  bool stop_run(bool interrupted);

  std::shared_ptr<const isa::IsaRegistry> isa_;
  Workload work_;
  RunOptions opts_;
  std::unique_ptr<config::GpuConfig> cfg_;  // what the GPU was built from (null: given a GPU)
  std::shared_ptr<Gpu> gpu_ptr_;
  Gpu* gpu_;                              // gpu_ptr_'s; replaced per command when flushing
  size_t first_row_ = 0;                  // the GPU's kernel-table row of record 0
  size_t end_ = 0;                        // one past the window's last command
  uint64_t epoch_ = 0;                    // run clock at the current GPU's birth
  bool gpu_used_ = false;                 // the current GPU has run a command
  bool in_warm_ = false;                  // inside a stretch of warm-up commands
  stats::Snapshot warm_start_;            // counts when it began
  stats::Snapshot warm_total_;            // counts of every finished stretch (empty: none)
  std::vector<uint8_t> record_warm_;      // per kernel record: a warm-up kernel
  RunResult result_;
  size_t next_ = 0;                       // next command to read
  struct Pending {
    size_t item, record;  // record: into result_.kernels, or result_.copies for a copy
  };
  struct CopyInFlight {  // an async copy on its engine (0: to device, 1: to host)
    bool active = false;
    size_t record = 0;
    uint32_t slot = 0;
  };
  CopyInFlight copy_[2];
  std::deque<Pending> pending_;           // admitted kernels not launched yet
  std::vector<uint8_t> stream_busy_;      // per slot: a kernel of it is in flight
  std::vector<uint8_t> stream_blocked_;   // scratch for launch_ready (no allocation)
  std::vector<std::unique_ptr<KernelSource>> sources_;  // per record, while in flight
  std::vector<size_t> finished_;
  PollHook hook_;
  Poller poller_;
  uint32_t kernels_done_ = 0;
  bool copy_started_ = false;  // the synchronous copy at next_ is under way
  size_t copy_record_ = 0;     // its record
  bool done_ = false;
};

}  // namespace accelsim::sim
