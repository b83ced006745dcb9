// GPU assembly and the per-kernel run loop.
#include "sim/gpu.h"

#include <algorithm>

#include "base/error.h"
#include "sim/watchdog.h"

namespace accelsim::sim {

struct Gpu::KernelRun {
  KernelSource* src = nullptr;
  Occupancy occ;
  sm::UnitMap units;
  sm::CtaShape shape;
  trace::ThreadBlockTrace next_tb;  // prefetched block, valid if have_next
  bool have_next = false;
  bool room = true;                 // an SM may have room for a CTA
  uint64_t start = 0;               // first cycle a CTA may launch
};

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

void Gpu::begin_kernel(KernelRun& k, stats::KernelRecord& rec) {
  const trace::KernelInfo& info = k.src->info();
  k.occ = compute_occupancy(cfg_, info);
  k.units.build(unit_kinds_, k.src->unit_class_names());
  k.shape = sm::CtaShape{info.id, k.occ.threads_per_cta, k.occ.warps_per_cta,
                         k.occ.registers_per_cta, info.shmem_bytes, k.occ.ctas_per_sm, &k.units};
  k.start = now_ + uint64_t(cfg_.kernel_launch_latency);
  for (auto& s : sms_) s->configure_kernel(k.occ.shmem_carveout);
  k.have_next = k.src->next_block(k.next_tb);
  rec.id = info.id;
  rec.name = info.name;
  rec.stream = info.stream;
  rec.launch_cycle = now_;
  rec.start_cycle = k.start;
  rec.grid_ctas = info.grid.count();
  rec.threads_per_cta = uint32_t(info.block.count());
  rec.ctas_per_sm = k.occ.ctas_per_sm;
  rec.occupancy_limiter = k.occ.limiter;
  rec.theoretical_occupancy = k.occ.theoretical;
  rec.l1d_size = uint64_t(sms_[0]->ldst().l1d_size());
  before_ = sum_counters();
  if (simple_) mem_before_ = simple_->counters();
}

// One CTA per SM per cycle, round robin from where the last pass stopped.
void Gpu::dispatch(KernelRun& k) {
  bool launched = false;
  size_t n = sms_.size();
  for (size_t i = 0; i < n && k.have_next; ++i) {
    sm::Sm& s = *sms_[(next_sm_ + i) % n];
    if (!s.can_launch(k.shape)) continue;
    s.launch(k.shape, k.next_tb, now_);
    launched = true;
    next_sm_ = uint32_t((next_sm_ + i + 1) % n);
    k.have_next = k.src->next_block(k.next_tb);
  }
  k.room = launched;
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

uint64_t Gpu::next_cycle(const KernelRun& k) const {
  uint64_t next = sm::Sm::kNever;
  for (const auto& s : sms_) next = std::min(next, s->wake_cycle());
  if (k.have_next && k.room) next = std::min(next, std::max(k.start, now_ + 1));
  return std::max(next, now_ + 1);
}

bool Gpu::run_kernel(KernelSource& src, stats::KernelRecord& rec, uint64_t cycle_limit) {
  KernelRun k;
  k.src = &src;
  begin_kernel(k, rec);
  Watchdog watchdog(uint64_t(cfg_.deadlock_cycles));
  watchdog.progress(now_);
  uint64_t progress_at = now_;
  while (true) {
    if (k.have_next && k.room && now_ >= k.start) dispatch(k);
    if (tick_sms(progress_at)) k.room = true;
    watchdog.progress(progress_at);
    bool busy = std::any_of(sms_.begin(), sms_.end(), [](const auto& s) { return s->has_ctas(); });
    if (!busy && !k.have_next) break;
    uint64_t next = next_cycle(k);
    if (next > watchdog.deadline() && now_ >= k.start) report_deadlock(k, watchdog.last_progress());
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

void Gpu::report_deadlock(const KernelRun& k, uint64_t last_progress) const {
  std::string msg = "deadlock: no progress for " + std::to_string(cfg_.deadlock_cycles) +
                    " cycles (last progress at cycle " + std::to_string(last_progress) +
                    ") while kernel '" + k.src->info().name + "' has work outstanding";
  if (k.have_next) msg += "; CTAs still waiting to launch";
  for (const auto& s : sms_)
    if (s->has_ctas()) msg += "\n  gpu." + s->describe_wait(last_progress + cfg_.deadlock_cycles);
  throw DeadlockError(msg);
}

}  // namespace accelsim::sim
