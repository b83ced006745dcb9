// The GPU: SMs and the memory below them, built from one config. Kernels are
// launched onto it and run side by side (the stream scheduler decides when);
// CTAs are dispatched under occupancy limits, and only the SMs that have
// something to do are ticked. Every event counts into the run's statistics
// (RunStats) in the stream slot of the kernel that caused it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/mem_port.h"
#include "sim/clock_domains.h"
#include "sim/cta_dispatcher.h"
#include "sim/gpu_params.h"
#include "sim/kernel_source.h"
#include "sim/occupancy.h"
#include "sim/parallel_sms.h"
#include "sim/read_ahead_source.h"
#include "sim/run_control.h"
#include "sim/run_result.h"
#include "sim/wave_sampler.h"
#include "sm/sm.h"
#include "stats/kernel_record.h"
#include "stats/run_stats.h"

namespace accelsim::config {
struct GpuConfig;
}

namespace accelsim::sim {

class Gpu {
 public:
  // The GPU reads `cfg` while it is built: its own GpuParams, each SM's
  // SmParams and the memory model's parameters are derived from it, and
  // nothing keeps it. `below` replaces the configured memory model (tests); null = from config.
  // `stats` receives the counters (its stream slots bound the streams that
  // may be told apart); null = a private one with a single slot. A `stats`
  // another GPU of the same config counted into is taken over: this GPU's
  // parts count on into the same families (a fresh GPU per command, as
  // RunOptions::flush asks, keeps one set of statistics for the run).
  explicit Gpu(const config::GpuConfig& cfg, std::unique_ptr<MemPort> below = nullptr,
               std::shared_ptr<stats::RunStats> stats = nullptr);
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  // Launches a kernel now, beside those in flight; its CTAs may start after
  // the launch latency. Its events count in stream slot `slot`, its per-kernel
  // counters go to kernel-table row `row`, its times and totals to `rec`
  // (which must stay put until it finishes).
  void launch(KernelSource& src, stats::KernelRecord& rec, uint32_t slot, size_t row);
  // Runs until at least one kernel in flight finished (true; their records
  // are appended to `finished`), or the core clock reaches `cycle_limit` or
  // `poller` asks to stop (false; records of kernels in flight are filled in
  // as partial, and poller->stopped() says which). DeadlockError when nothing
  // moves for deadlock_cycles, or nothing useful happens for
  // livelock_window_cycles while cycles go by.
  bool run_until_kernel_done(Cycle cycle_limit, std::vector<stats::KernelRecord*>& finished,
                             Poller* poller = nullptr);
  size_t kernels_in_flight() const { return active_.size(); }
  // Fills in the records of the kernels in flight as partial (a run that
  // stops between kernels); they stay in flight.
  void cut_off();

  // One kernel alone, start to end (tests, simple drivers): slot 0.
  bool run_kernel(KernelSource& src, stats::KernelRecord& rec, Cycle cycle_limit = Cycle::max());
  // Host-to-device copy (warms L2 when memcpy_timing is set), to its end.
  void memcpy_to_device(uint64_t address, uint64_t bytes);
  // The same in steps a run can stop between: begin_copy, then run_copy
  // until it returns true (copy done); false when the clock reached
  // `cycle_limit` or `poller` asked to stop first.
  // `to_host`: a device-to-host copy (the second copy engine; reads L2).
  void begin_copy(uint64_t address, uint64_t bytes, bool to_host = false);
  bool run_copy(Cycle cycle_limit, Poller* poller = nullptr) {
    return advance_copies(cycle_limit, poller, false);
  }
  // Copies on streams (cudaMemcpyAsync): run with no kernel in flight until
  // a copy under way at the call has finished (true), or the limit / poller
  // stops it (false).
  bool run_copies(Cycle cycle_limit, Poller* poller = nullptr) {
    return advance_copies(cycle_limit, poller, true);
  }
  bool copying(bool to_host) const { return below_->copying(to_host); }
  // Empties the caches below L1 (RunOptions::flush_caches, before a launch).
  void invalidate_caches() { below_->invalidate_caches(); }
  // Copies run_until_kernel_done also returns for when they finish: bit 0
  // the host-to-device engine, bit 1 device-to-host (0: kernels only).
  void watch_copies(uint8_t mask) { watch_copies_ = mask; }
  // Warp instructions issued so far (all SMs and streams; progress reports).
  uint64_t warp_instructions() const;
  // Kernels launched from now on that are long enough get sampled: see
  // WaveSampler. A kernel stops early only while it is alone on the GPU.
  void set_intra_sampling(const IntraSampling& opts) { intra_ = opts; }
  // Functional warm-up: `src`'s global and local accesses, every block in
  // trace order, go into the caches below L1 as if it had run (MemPort::warm):
  // no time passes, nothing is counted. Streamed (PTX) blocks are passed over.
  void warm_caches(KernelSource& src);
  // A sampled kernel whose blocks have effects (PTX: KernelSource::has_effects)
  // runs the CTAs it never dispatched once its resident ones have drained:
  // functionally, in dispatch order, at no simulated time, their accesses
  // warming L2 when IntraSampling::warm_tail says so.
  // CTAs finished and in all, over the kernels in flight (progress reports:
  // read when polled, nothing counted per cycle).
  void cta_progress(uint64_t& done, uint64_t& total) const;

  Cycle now() const { return now_; }
  const GpuParams& params() const { return params_; }
  const ClockDomains& clocks() const { return clocks_; }
  sm::Sm& sm(size_t i) { return *sms_[i]; }
  // The memory below L1 (either model, or the port a test gave).
  const MemPort& memory() const { return *below_; }
  size_t num_sms() const { return sms_.size(); }
  const sm::Sm& sm(size_t i) const { return *sms_[i]; }
  // Threads ticking the SMs (config `threads`, resolved); 1 = sequential.
  unsigned threads() const { return parallel_ ? parallel_->threads() : 1; }
  // `threads: 0` on more than one thread: its measurements so far; else null.
  const ThreadBackoff* thread_backoff() const { return parallel_ ? parallel_->backoff() : nullptr; }
  // What the GPU waits on, composed from its clocked parts' describe(): the
  // kernels in flight, every SM with work, every memory-side component that
  // still wants a tick (deadlock and livelock reports).
  std::string describe() const;
  const std::shared_ptr<stats::RunStats>& stats() const { return stats_; }

 private:
  bool advance_copies(Cycle cycle_limit, Poller* poller, bool until_one_ends);
  struct Active {  // a launched kernel not yet finished
    CtaDispatcher::Kernel* kernel;
    stats::KernelRecord* rec;
    size_t row;
    stats::KernelCounters::Mark mark;
    std::shared_ptr<ReadAheadSource> read_ahead;  // decodes its blocks ahead (threads > 1)
    std::shared_ptr<WaveSampler> sampler;         // intra-kernel sampling, when it applies
    bool stopped = false;                         // the sampler stopped its dispatch
    uint64_t tail_ran = 0;                        // CTAs it never dispatched, run for their effects
    bool tail_done = false;                       // ... all of them
  };
  void sample_waves();
  bool run_skipped_ctas(Cycle cycle_limit, Poller* poller);
  bool run_tail(Active& a, Cycle cycle_limit, Poller* poller);
  WaveCounts wave_counts(uint32_t slot) const;
  bool jump_to_projected_end(Cycle cycle_limit);
  void wire_stats();
  bool tick_sms(Cycle& progress_at);
  void refill_streams();  // streamed blocks' warps that ran low (PTX mode)
  Cycle next_cycle() const;
  void finish(Active& a, bool complete);
  bool collect_finished(std::vector<stats::KernelRecord*>& finished);
  bool watched_copy_done() const {
    return ((watch_copies_ & 1) && !copying(false)) || ((watch_copies_ & 2) && !copying(true));
  }
  Cycle first_start() const;
  [[noreturn]] void report_deadlock(Cycle last_progress) const;
  uint64_t useful_work() const;
  void check_livelock();
  [[noreturn]] void report_livelock() const;

  GpuParams params_;
  ClockDomains clocks_;
  std::vector<sm::UnitKind> unit_kinds_;
  std::unique_ptr<MemPort> below_;
  std::unique_ptr<ParallelSms> parallel_;  // null: SMs tick in sequence (threads 1)
  bool streaming_ = false;  // a kernel with streamed blocks was launched
  std::vector<std::unique_ptr<sm::Sm>> sms_;
  std::shared_ptr<stats::RunStats> stats_;
  CtaDispatcher dispatcher_;
  std::vector<Active> active_;
  Cycle now_{0};
  uint8_t watch_copies_ = 0;
  size_t events_family_ = 0;  // index of sm.events (a kernel's SmCounters row)
  size_t l2_family_ = SIZE_MAX, dram_family_ = SIZE_MAX;  // l2.accesses, dram.ops (wave samples)
  IntraSampling intra_;
  bool sampling_ = false;        // a kernel in flight has a sampler
  uint64_t projected_end_ = 0;   // a sampled kernel just finished: the clock goes on from here
  // Livelock watchdog: the useful-work count, when it last changed, and the
  // next cycle at which to look (a few looks per window, never per cycle).
  uint64_t work_seen_ = 0;
  Cycle work_changed_at_{0}, livelock_look_at_{0};
};

}  // namespace accelsim::sim
