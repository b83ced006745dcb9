// What a run returns: per-kernel records plus the few GPU facts needed to
// interpret them; and the options a run takes.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/gpu_params.h"
#include "stats/kernel_record.h"
#include "stats/run_stats.h"

namespace accelsim::sim {

struct RunOptions {
  uint64_t max_cycles = UINT64_MAX;  // stop the whole run at this core cycle
  std::vector<uint32_t> kernels;     // kernel ids to simulate (trace ids); empty = all
  // Drop L2's lines before each kernel launch (Nsight Compute's default
  // cache control; L1 starts every kernel empty anyway).
  bool flush_caches = false;
};

// A copy the run timed (in command order): its direction, where, how much,
// its stream (async copies) and when the copy engine ran it. `done` is false
// for a copy a cut-short run did not finish (or reach: start = end then).
struct CopyRecord {
  bool to_host = false, async = false, done = false;
  uint64_t address = 0, bytes = 0, stream = 0;
  uint64_t start_cycle = 0, end_cycle = 0;
};

struct RunResult {
  std::vector<stats::KernelRecord> kernels;
  std::vector<CopyRecord> copies;
  uint64_t total_cycles = 0;
  bool completed = true;     // false when max_cycles or an interrupt cut the run short
  bool interrupted = false;  // the run's poll hook asked it to stop (Ctrl-C)
  uint32_t max_warps_per_sm = 0;
  uint32_t sm_count = 0;
  uint64_t core_period_ps = 0;
  // Counter families and per-kernel table (row i = kernels[i]); shared so
  // that Python views of the counters outlive this result safely.
  std::shared_ptr<stats::RunStats> stats;
};

// An empty result for a GPU built with these parameters.
inline RunResult empty_result(const GpuParams& p) {
  RunResult r;
  r.max_warps_per_sm = p.max_warps_per_sm();
  r.sm_count = p.sms;
  r.core_period_ps = p.core_period_ps;
  return r;
}
// An empty result with the same GPU facts as `r`.
inline RunResult empty_result_like(const RunResult& r) {
  RunResult e;
  e.max_warps_per_sm = r.max_warps_per_sm;
  e.sm_count = r.sm_count;
  e.core_period_ps = r.core_period_ps;
  return e;
}

}  // namespace accelsim::sim
