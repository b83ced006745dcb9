// One GPU kept across several runs (a PTX-mode Device: each synchronize()
// is a run). The clock goes on from where the last run stopped and the
// caches, DRAM rows and queues keep their state, as on a real device
// between two host synchronizations (host time in between is not modelled).
// Each run's result covers that run alone: its kernels and copies, its
// cycles (total_cycles = cycles this run took; record times are on the
// GPU's clock) and statistics of its own (RunStats::since).
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "config/gpu_config.h"
#include "sim/gpu.h"
#include "sim/run_result.h"
#include "sim/work_items.h"

namespace accelsim::sim {

class GpuSession {
 public:
  // At most `max_streams` distinct streams over the session's life (they
  // size the GPU's per-stream counters up front).
  explicit GpuSession(const config::GpuConfig& cfg, size_t max_streams = 32);

  // Runs `workload` on the session's GPU. A run cut short (budget) or one
  // that raised leaves kernels half done: the next run starts on a fresh
  // GPU (reset() says so).
  RunResult run(Workload workload, const RunOptions& opts = {});
  Cycle now() const { return gpu_->now(); }
  // Runs that started on a fresh GPU after the first (cut-short or failed runs).
  uint32_t resets() const { return resets_; }

 private:
  void reset();
  void map_streams(Workload& w);

  config::GpuConfig cfg_;
  size_t max_streams_;
  std::shared_ptr<Gpu> gpu_;
  std::vector<uint64_t> streams_;  // stream id of each slot, first-seen order
  uint32_t resets_ = 0;
  std::mutex mu_;  // one run at a time (runs release the GIL)
};

}  // namespace accelsim::sim
