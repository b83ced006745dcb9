// One row of the per-kernel table the simulator returns.
#pragma once
#include <cstdint>
#include <string>

#include "stats/sm_counters.h"

namespace accelsim::stats {

// What became of a kernel of the workload in a run.
enum class KernelStatus : uint8_t {
  Simulated,    // ran to its end
  CutOff,       // started, stopped by the cycle budget or an interrupt (partial counts)
  NotReached,   // selected, never launched: the run stopped before it (budget, interrupt)
  NotSelected,  // left out by kernel selection
  Warmup,       // simulated only to warm the GPU for later kernels (counters not in the result's totals)
  Sampled,      // simulated until its CTA waves were steady, the rest projected (end_cycle projected)
};
inline const char* status_name(KernelStatus s) {
  switch (s) {
    case KernelStatus::Simulated: return "simulated";
    case KernelStatus::CutOff: return "cut_off";
    case KernelStatus::NotReached: return "not_reached";
    case KernelStatus::NotSelected: return "not_selected";
    case KernelStatus::Warmup: return "warmup";
    case KernelStatus::Sampled: return "sampled";
  }
  return "?";
}

struct KernelRecord {
  uint32_t id = 0;
  std::string name;
  uint64_t stream = 0;
  uint32_t stream_slot = 0;   // dense id of the stream in the run's statistics
  bool skipped = false;       // never simulated (status NotSelected or NotReached)
  KernelStatus status = KernelStatus::Simulated;
  uint64_t launch_cycle = 0;  // command reached the GPU
  uint64_t start_cycle = 0;   // first CTA could start (after launch latency)
  uint64_t first_cta_cycle = 0;  // first CTA landed on an SM (later when SMs are busy)
  uint64_t end_cycle = 0;     // last CTA retired
  uint64_t grid_ctas = 0;
  uint64_t simulated_ctas = 0;       // CTAs simulated (all of them unless Sampled)
  uint64_t simulated_end_cycle = 0;  // Sampled: where the simulated part ended (end_cycle is projected)
  uint64_t cycles_bound = 0;         // Sampled: half-width of the projection's 95% interval, in cycles
  uint32_t threads_per_cta = 0;
  uint32_t ctas_per_sm = 0;   // occupancy limit
  std::string occupancy_limiter;
  std::string trace_warnings;  // deviations of its trace that were read anyway ("" = none)
  double theoretical_occupancy = 0;
  uint64_t l1d_size = 0;      // after the adaptive split
  SmCounters sm;              // summed over SMs, this kernel only
  uint64_t l2_read_hits = 0, l2_read_misses = 0, l2_writes = 0, dram_reads = 0;
  // Detailed memory model only (0 with the simple one).
  uint64_t dram_writes = 0, dram_activates = 0, dram_row_hits = 0, dram_row_misses = 0;

  // Never negative: a record the run never reached has all times equal.
  uint64_t cycles() const { return end_cycle > launch_cycle ? end_cycle - launch_cycle : 0; }
  // The kernel's time on the SMs, first CTA on an SM to last CTA retired: what
  // a profiler's elapsed-cycles metrics count (the launch latency and any wait
  // for busy SMs are outside it).
  uint64_t sm_elapsed_cycles() const { return end_cycle > first_cta_cycle ? end_cycle - first_cta_cycle : 0; }
  uint64_t launch_latency_cycles() const { return start_cycle > launch_cycle ? start_cycle - launch_cycle : 0; }
  // A sampled kernel's counts are its simulated part's, and so is its IPC.
  double ipc() const {
    const uint64_t c = status == KernelStatus::Sampled && simulated_end_cycle > launch_cycle
                           ? simulated_end_cycle - launch_cycle
                           : cycles();
    return c ? double(sm.warp_insts) / double(c) : 0.0;
  }
  double achieved_occupancy(uint32_t max_warps) const {
    return sm.active_cycles ? double(sm.warp_cycles) / double(sm.active_cycles) / max_warps : 0.0;
  }
};

}  // namespace accelsim::stats
