// What a run returns: per-kernel records plus the few GPU facts needed to
// interpret them; and the options a run takes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/gpu_params.h"
#include "stats/kernel_record.h"
#include "stats/run_stats.h"

namespace accelsim::sim {

// Intra-kernel sampling: a kernel of many CTA waves is simulated until its
// waves run at a steady rate, then the CTAs not yet dispatched are projected
// (sim::WaveSampler says when and how).
struct IntraSampling {
  bool enabled = false;
  double tolerance = 0.03;   // rate drift allowed, and the projection's relative 95% bound
  uint32_t window = 4;       // the last waves whose rates must match all steady waves
  uint32_t min_waves = 10;   // kernels of fewer waves (or of fewer than 2 x window + 2) run in full
  // PTX mode, where the CTAs never dispatched still run functionally: their
  // global and local accesses warm L2 (Gpu::warm_caches' way), so later
  // kernels find what those CTAs would have left there.
  bool warm_tail = true;
};

struct RunOptions {
  uint64_t max_cycles = UINT64_MAX;  // stop the whole run at this core cycle
  std::vector<uint32_t> kernels;     // kernel ids to simulate (trace ids); empty = all
  // Commands (positions in the workload's command list, ascending) run only
  // to warm the GPU (caches, DRAM rows) for the commands after them: a
  // kernel among them is simulated whatever `kernels` says and its record
  // says Warmup, a copy's record is flagged warmup, and their counts are left
  // out of the result's families. Warm-up never overlaps counted work: the
  // run waits for the GPU to be idle where warm-up starts and ends.
  std::vector<size_t> warmup;
  // Kernels (command positions, ascending) that warm the GPU without being
  // simulated: their global accesses are replayed into the caches below L1
  // (Gpu::warm_caches), far cheaper than simulating them; records say
  // Warmup and skipped. Warm-up as above otherwise.
  std::vector<size_t> replay;
  // Only commands [first_command, end_command) of the workload are run; the
  // ones before `count_from` (inside the window) are warm-up, as above.
  size_t first_command = 0, end_command = SIZE_MAX, count_from = 0;
  // Every command starts on a GPU in its power-on state (empty caches and
  // queues, DRAM rows closed), one command at a time: Nsight Compute's
  // serialised, cache-flushed measurement. Each command's timing is then
  // independent of the others, so a run split into pieces gives the same
  // numbers, bit for bit.
  bool flush = false;
  IntraSampling intra;
  // Drop L2's lines before each kernel launch (Nsight Compute's default
  // cache control; L1 starts every kernel empty anyway).
  bool flush_caches = false;
};

// A copy the run timed (in command order): its direction, where, how much,
// its stream (async copies) and when the copy engine ran it. `done` is false
// for a copy a cut-short run did not finish (or reach: start = end then).
struct CopyRecord {
  bool to_host = false, async = false, done = false;
  bool warmup = false;  // before RunOptions::count_from: not counted in the result
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
