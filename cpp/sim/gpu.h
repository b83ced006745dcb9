// The GPU: SMs and the memory below them, built from one config; runs kernels
// one after another (command-list order), dispatching CTAs under occupancy
// limits and ticking only the SMs that have something to do.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/gpu_config.h"
#include "ldst/mem_port.h"
#include "mem/simple_memory.h"
#include "sim/clock_domains.h"
#include "sim/cta_dispatcher.h"
#include "sim/kernel_source.h"
#include "sim/occupancy.h"
#include "sm/sm.h"
#include "stats/kernel_record.h"

namespace accelsim::sim {

class Gpu {
 public:
  // `below` replaces the configured memory model (tests); null = from config.
  explicit Gpu(const config::GpuConfig& cfg, std::unique_ptr<ldst::MemPort> below = nullptr);
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  // Launches the kernel now and runs it until its last CTA retires, or until
  // the core clock reaches `cycle_limit` (then returns false, record partial).
  bool run_kernel(KernelSource& src, stats::KernelRecord& rec, uint64_t cycle_limit = UINT64_MAX);
  // Host-to-device copy (warms L2 when memcpy_timing is set).
  void memcpy_to_device(uint64_t address, uint64_t bytes);

  uint64_t now() const { return now_; }
  const config::GpuConfig& config() const { return cfg_; }
  const ClockDomains& clocks() const { return clocks_; }
  sm::Sm& sm(size_t i) { return *sms_[i]; }
  size_t num_sms() const { return sms_.size(); }

 private:
  void begin_kernel(KernelSource& src, stats::KernelRecord& rec);
  bool tick_sms(uint64_t& progress_at);
  uint64_t next_cycle() const;
  void finish_kernel(stats::KernelRecord& rec);
  [[noreturn]] void report_deadlock(uint64_t last_progress) const;
  stats::SmCounters sum_counters() const;

  config::GpuConfig cfg_;
  ClockDomains clocks_;
  std::vector<sm::UnitKind> unit_kinds_;
  std::unique_ptr<ldst::MemPort> below_;
  mem::SimpleMemory* simple_ = nullptr;  // below_ when it is the simple model
  std::vector<std::unique_ptr<sm::Sm>> sms_;
  CtaDispatcher dispatcher_;
  const CtaDispatcher::Kernel* kernel_ = nullptr;  // the kernel being run
  uint64_t now_ = 0;
  stats::SmCounters before_;
  mem::SimpleMemoryCounters mem_before_;
};

}  // namespace accelsim::sim
