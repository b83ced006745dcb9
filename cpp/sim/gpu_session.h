// One GPU kept across several runs (a PTX-mode Device: each synchronize()
// is a run). The clock goes on from where the last run stopped and the
// caches, DRAM rows and queues keep their state, as on a real device
// between two host synchronizations (host time in between is not modelled).
// Each run's result covers that run alone: its kernels and copies, its
// cycles (total_cycles = cycles this run took; record times are on the
// GPU's clock) and statistics of its own (RunStats::since).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "config/gpu_config.h"
#include "sim/gpu.h"
#include "sim/run_control.h"
#include "sim/run_result.h"
#include "sim/work_items.h"
#include "sim/workload_run.h"

namespace accelsim::sim {

class GpuSession;

// One run on a session's GPU, stepped like any WorkloadRun (kernel by kernel,
// polled for Ctrl-C and progress); finish() gives its result. It holds the
// session for its life. A run that raised (fail(), or destroyed unfinished)
// or was cut short leaves the next run a fresh GPU. Opening a second run
// while one is open is an Error (it would wait on itself).
class SessionRun {
 public:
  SessionRun(GpuSession& session, Workload workload, const RunOptions& opts);
  ~SessionRun();
  SessionRun(const SessionRun&) = delete;
  SessionRun& operator=(const SessionRun&) = delete;
  // False once it failed or finished: run() is gone then.
  bool active() const { return run_ != nullptr; }
  WorkloadRun& run();
  // The run raised (or is abandoned): the GPU is mid-kernel, nothing to go
  // on from; the session is free again. No-op once finished.
  void fail();
  // This run's result: its cycles, records and statistics only.
  RunResult finish();

 private:
  GpuSession& session_;
  std::unique_lock<std::mutex> lock_;
  uint64_t t0_ = 0;
  stats::Snapshot s0_;
  size_t row0_ = 0;
  std::unique_ptr<WorkloadRun> run_;
  bool finished_ = false;
};

class GpuSession {
 public:
  // At most `max_streams` distinct streams over the session's life (they
  // size the GPU's per-stream counters up front).
  explicit GpuSession(const config::GpuConfig& cfg, size_t max_streams = 32);

  // Called now and then from inside a run (never per cycle); returning
  // true stops the run where it is (result: interrupted).
  using PollHook = std::function<bool(const Progress&)>;

  // Runs `workload` on the session's GPU. A run cut short (budget) or one
  // that raised leaves kernels half done: the next run starts on a fresh
  // GPU (reset() says so).
  RunResult run(Workload workload, const RunOptions& opts = {}, const PollHook& poll = {});
  // The same, stepped by the caller (Python drives it for Ctrl-C and progress).
  std::unique_ptr<SessionRun> start(Workload workload, const RunOptions& opts = {});
  uint64_t now() const { return gpu_->now(); }
  // Runs that started on a fresh GPU after the first (cut-short or failed runs).
  uint32_t resets() const { return resets_; }
  // An owner that ends after a cut-short run (the CUDA runtime library) keeps
  // that run's GPU instead, so stats_since_reset() still covers everything.
  void set_reset_after_cut(bool reset) { reset_after_cut_ = reset; }
  // Everything since the GPU was built (the last reset): counter totals and
  // every kernel-table row, for a whole program's result (cudart/).
  std::shared_ptr<stats::RunStats> stats_since_reset() const;
  // Opens a window (a Device's synchronize()): stats_since_mark() covers every
  // run since, counter totals and kernel rows. A fresh GPU (after a cut-short
  // run) restarts the window at its start; a cut-short run's reset keeps the
  // window it ended until the next mark().
  void mark();
  std::shared_ptr<stats::RunStats> stats_since_mark() const;

 private:
  friend class SessionRun;
  void reset();
  void map_streams(Workload& w);

  config::GpuConfig cfg_;
  size_t max_streams_;
  std::shared_ptr<Gpu> gpu_;
  std::vector<uint64_t> streams_;  // stream id of each slot, first-seen order
  stats::Snapshot first_snapshot_;  // the fresh GPU's counters (all zero unless wiring counts)
  stats::Snapshot mark_snapshot_;   // the window's start (mark())
  size_t mark_row_ = 0;
  std::shared_ptr<stats::RunStats> cut_window_;  // the window a cut-short run ended
  uint32_t resets_ = 0;
  bool reset_after_cut_ = true;
  std::mutex mu_;  // one run at a time (runs release the GIL)
};

}  // namespace accelsim::sim
