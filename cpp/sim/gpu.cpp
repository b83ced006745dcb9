// GPU assembly and the per-kernel run loop.
#include "sim/gpu.h"

#include <algorithm>

#include "base/error.h"
#include "sim/watchdog.h"

namespace accelsim::sim {

Gpu::Gpu(const config::GpuConfig& cfg, std::unique_ptr<ldst::MemPort> below)
    : cfg_(cfg), clocks_(cfg), unit_kinds_(sm::unit_kinds_from_config(cfg)), below_(std::move(below)) {
  config::validate(cfg_);
  if (!below_) {
    if (cfg_.memory_model != "simple")
      throw ConfigError("memory_model", "'" + cfg_.memory_model + "' is not available yet; use 'simple'");
    auto simple = std::make_unique<mem::SimpleMemory>(cfg_, uint32_t(cfg_.sm_count));
    simple_ = simple.get();
    below_ = std::move(simple);
  }
  for (int64_t i = 0; i < cfg_.sm_count; ++i)
    sms_.push_back(std::make_unique<sm::Sm>(cfg_, uint16_t(i), unit_kinds_, below_.get()));
  for (const auto& part : below_->clocked_parts())
    clocks_.attach(ClockDomains::Id(part.domain), part.component);
}

Gpu::~Gpu() = default;

void Gpu::memcpy_to_device(uint64_t address, uint64_t bytes) {
  if (simple_ && cfg_.memcpy_timing) simple_->warm(address, bytes, now_);
}

stats::SmCounters Gpu::sum_counters() const {
  stats::SmCounters total;
  for (const auto& s : sms_) total += s->counters();
  return total;
}

void Gpu::begin_kernel(KernelSource& src, stats::KernelRecord& rec) {
  const trace::KernelInfo& info = src.info();
  Occupancy occ = compute_occupancy(cfg_, info);
  for (auto& s : sms_) s->configure_kernel(occ.shmem_carveout);
  uint64_t start = now_ + uint64_t(cfg_.kernel_launch_latency);
  kernel_ = &dispatcher_.launch(src, occ, unit_kinds_, start);
  rec.id = info.id;
  rec.name = info.name;
  rec.stream = info.stream;
  rec.launch_cycle = now_;
  rec.start_cycle = start;
  rec.grid_ctas = info.grid.count();
  rec.threads_per_cta = uint32_t(info.block.count());
  rec.ctas_per_sm = occ.ctas_per_sm;
  rec.occupancy_limiter = occ.limiter;
  rec.theoretical_occupancy = occ.theoretical;
  rec.l1d_size = uint64_t(sms_[0]->ldst().l1d_size());
  before_ = sum_counters();
  if (simple_) mem_before_ = simple_->counters();
}

bool Gpu::tick_sms(uint64_t& progress_at) {
  bool retired = false;
  for (auto& s : sms_) {
    if (s->wake_cycle() > now_) continue;
    s->tick(now_);
    retired |= s->take_retired() > 0;
    progress_at = std::max(progress_at, s->last_progress());
  }
  return retired;
}

uint64_t Gpu::next_cycle() const {
  uint64_t next = std::min(clocks_.next_core_cycle(), dispatcher_.next_cycle(now_));
  for (const auto& s : sms_) next = std::min(next, s->wake_cycle());
  return std::max(next, now_ + 1);
}

bool Gpu::run_kernel(KernelSource& src, stats::KernelRecord& rec, uint64_t cycle_limit) {
  begin_kernel(src, rec);
  Watchdog watchdog(uint64_t(cfg_.deadlock_cycles));
  watchdog.progress(now_);
  uint64_t progress_at = now_;
  while (true) {
    if (clocks_.catch_up(now_)) progress_at = now_;  // memory-side domains first
    dispatcher_.dispatch(sms_, now_);                // CTAs onto SMs with room
    if (tick_sms(progress_at)) dispatcher_.cta_retired();
    watchdog.progress(progress_at);
    if (kernel_->finished()) break;
    uint64_t next = next_cycle();
    if (next > watchdog.deadline() && now_ >= kernel_->start) report_deadlock(watchdog.last_progress());
    if (next >= cycle_limit) {
      now_ = cycle_limit;
      finish_kernel(rec);
      return false;
    }
    now_ = next;
  }
  finish_kernel(rec);
  return true;
}

void Gpu::finish_kernel(stats::KernelRecord& rec) {
  dispatcher_.drop_finished();
  kernel_ = nullptr;
  for (auto& s : sms_) s->account(now_);
  rec.end_cycle = now_;
  rec.sm = sum_counters() - before_;
  if (simple_) {
    const auto& m = simple_->counters();
    rec.l2_read_hits = m.l2_read_hits - mem_before_.l2_read_hits;
    rec.l2_read_misses = m.l2_read_misses - mem_before_.l2_read_misses;
    rec.l2_writes = m.l2_writes - mem_before_.l2_writes;
    rec.dram_reads = m.dram_reads - mem_before_.dram_reads;
  }
}

void Gpu::report_deadlock(uint64_t last_progress) const {
  std::string msg = "deadlock: no progress for " + std::to_string(cfg_.deadlock_cycles) +
                    " cycles (last progress at cycle " + std::to_string(last_progress) +
                    ") while kernel '" + kernel_->src->info().name + "' has work outstanding";
  if (kernel_->have_next) msg += "; CTAs still waiting to launch";
  for (const auto& s : sms_)
    if (s->has_ctas()) msg += "\n  gpu." + s->describe_wait(last_progress + cfg_.deadlock_cycles);
  msg += clocks_.describe_busy();
  throw DeadlockError(msg);
}

}  // namespace accelsim::sim
