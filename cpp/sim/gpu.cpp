// GPU assembly and the run loop over the kernels in flight.
#include "sim/gpu.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <span>
#include <type_traits>

#include "base/error.h"
#include "config/gpu_config.h"
#include "mem/memory_model.h"
#include "sim/gpu_stats.h"
#include "sim/watchdog.h"

namespace accelsim::sim {

namespace {
// The config is checked before anything is derived from it.
const config::GpuConfig& validated(const config::GpuConfig& cfg) {
  config::validate(cfg);
  return cfg;
}
}  // namespace

Gpu::Gpu(const config::GpuConfig& cfg, std::unique_ptr<MemPort> below,
         std::shared_ptr<stats::RunStats> stats)
    : params_(gpu_params(validated(cfg))), clocks_(cfg), unit_kinds_(sm::unit_kinds_from_config(cfg)),
      below_(below ? std::move(below) : mem::make_memory(cfg)),
      stats_(stats ? std::move(stats) : std::make_shared<stats::RunStats>(1)),
      dispatcher_(params_.sms, params_.concurrent_kernels_per_sm) {
  if (params_.threads > 1)
    parallel_ = std::make_unique<ParallelSms>(params_.threads, below_.get(), params_.adaptive_threads);
  const sm::SmParams sm_params = sm::sm_params(cfg);  // every SM's
  for (uint32_t i = 0; i < params_.sms; ++i) {
    MemPort* port = parallel_ ? parallel_->port_for(uint16_t(i)) : below_.get();
    sms_.push_back(std::make_unique<sm::Sm>(sm_params, uint16_t(i), port));
  }
  for (const auto& part : below_->clocked_parts())
    clocks_.attach(ClockDomains::Id(uint8_t(part.domain)), part.component);
  wire_stats();
}

Gpu::~Gpu() = default;

// Every component registers its families before the kernel table is built.
// A RunStats already wired (by an earlier GPU of the run) is taken over:
// the same families, found again by name, count on.
void Gpu::wire_stats() {
  stats::CounterRegistry& reg = stats_->registry;
  const bool rebind = stats_->kernels != nullptr;
  const size_t families = reg.size();
  reg.set_rebinding(rebind);
  register_sm_families(reg, sms_);
  below_->register_stats(reg);
  reg.set_rebinding(false);
  if (rebind && reg.size() != families)
    throw Error("statistics taken over from a GPU of another config (families differ)");
  if (!rebind) stats_->seal();
  events_family_ = reg.index_of("sm.events");
  l2_family_ = reg.index_of("l2.accesses");
  dram_family_ = reg.index_of("dram.ops");
}

void Gpu::memcpy_to_device(uint64_t address, uint64_t bytes) {
  begin_copy(address, bytes);
  run_copy(Cycle::max());
}

void Gpu::begin_copy(uint64_t address, uint64_t bytes, bool to_host) {
  below_->begin_copy(address, bytes, now_, to_host);
}

// In slices of kCopySlice cycles, the wall clock read between them: a
// slice is long enough that the read costs nothing, short enough (well under
// a millisecond of simulation) that Ctrl-C and the budget act at once.
// Goes on while every engine busy at the call still is (`until_one_ends`),
// else while any copy is under way.
bool Gpu::advance_copies(Cycle cycle_limit, Poller* poller, bool until_one_ends) {
  constexpr uint64_t kCopySlice = 2048;
  const bool in = copying(false), out = copying(true);
  auto go_on = [&] {
    const bool in_now = copying(false), out_now = copying(true);
    return until_one_ends ? (in || out) && (!in || in_now) && (!out || out_now) : in_now || out_now;
  };
  while (go_on()) {
    if (now_ >= cycle_limit || (poller && poller->check_now())) return false;
    const Cycle slice_end = cycle_limit - now_ <= kCopySlice ? cycle_limit : now_ + kCopySlice;
    now_ = below_->advance_copy(now_, slice_end);
  }
  return true;
}

uint64_t Gpu::warp_instructions() const {
  uint64_t n = 0;
  std::span<const uint64_t> v = stats_->registry.family(events_family_).values();
  for (size_t i = 0; i + stats::kSmCounterFields <= v.size(); i += stats::kSmCounterFields)
    n += v[i + offsetof(stats::SmCounters, warp_insts) / sizeof(uint64_t)];
  return n;
}

void Gpu::cta_progress(uint64_t& done, uint64_t& total) const {
  done = total = 0;
  for (const Active& a : active_) {
    done += a.kernel->dispatched - a.kernel->resident + a.tail_ran;
    total += a.kernel->src->info().grid.count();
  }
}

void Gpu::launch(KernelSource& src, stats::KernelRecord& rec, uint32_t slot, size_t row) {
  if (slot >= stats_->registry.stream_slots()) throw Error("stream slot out of range");
  const trace::KernelInfo& info = src.info();
  Occupancy occ = compute_occupancy(params_.occupancy, info);
  const Cycle start = now_ + params_.kernel_launch_latency;
  // With threads to spare, the kernel's blocks are decoded ahead on a thread
  // of their own (same blocks, same order: the result cannot change).
  std::shared_ptr<ReadAheadSource> ahead;
  size_t reading = size_t(std::count_if(active_.begin(), active_.end(),
                                        [](const Active& a) { return a.read_ahead != nullptr; }));
  if (src.streams()) streaming_ = true;
  if (parallel_ && reading + 1 < parallel_->threads() && !src.streams())
    ahead = std::make_shared<ReadAheadSource>(src, std::min<size_t>(256, 2 * sms_.size()));
  KernelSource& source = ahead ? static_cast<KernelSource&>(*ahead) : src;
  CtaDispatcher::Kernel& k = dispatcher_.launch(source, occ, unit_kinds_, start, uint8_t(slot));
  std::shared_ptr<WaveSampler> sampler;
  const uint64_t wave = uint64_t(occ.ctas_per_sm) * sms_.size();
  // A streamed source is sampled only if the CTAs it skips can still run for their effects (PTX).
  if ((!src.streams() || src.has_effects()) && WaveSampler::worth_it(intra_, wave, info.grid.count())) {
    sampler = std::make_shared<WaveSampler>(intra_, wave, info.grid.count(), wave_counts(slot));
    sampling_ = true;
  }
  rec.id = info.id;
  rec.name = info.name;
  rec.stream = info.stream;
  rec.stream_slot = slot;
  rec.launch_cycle = now_.count();
  rec.start_cycle = start.count();
  rec.grid_ctas = info.grid.count();
  rec.threads_per_cta = uint32_t(info.block.count());
  rec.ctas_per_sm = occ.ctas_per_sm;
  rec.occupancy_limiter = occ.limiter;
  rec.theoretical_occupancy = occ.theoretical;
  rec.l1d_size = occ.l1d_bytes;
  active_.push_back(Active{&k, &rec, row, stats_->kernels->begin(slot), std::move(ahead), std::move(sampler)});
}

bool Gpu::tick_sms(Cycle& progress_at) {
  if (parallel_) return parallel_->tick(sms_, now_, progress_at);  // same results, N threads
  bool retired = false;
  for (auto& s : sms_) {
    if (s->wake_cycle() > now_) continue;
    s->tick(now_);
    retired |= s->take_retired() > 0;
    progress_at = latest(progress_at, s->last_progress());
  }
  return retired;
}

void Gpu::refill_streams() {
  bool retired = false;
  for (auto& s : sms_)
    if (s->wants_refill()) {
      s->refill(now_);
      retired |= s->take_retired() > 0;
    }
  if (retired) dispatcher_.cta_retired();
}

Cycle Gpu::next_cycle() const {
  Cycle next = earliest(clocks_.next_core_cycle(), dispatcher_.next_cycle(now_));
  for (const auto& s : sms_) next = earliest(next, s->wake_cycle());
  return latest(next, now_ + 1);
}

// The latest launch-latency end: before it, idling is waiting, not a deadlock.
Cycle Gpu::first_start() const {
  Cycle last{0};
  for (const Active& a : active_) last = latest(last, a.kernel->start);
  return last;
}

bool Gpu::run_until_kernel_done(Cycle cycle_limit, std::vector<stats::KernelRecord*>& finished,
                                Poller* poller) {
  if (active_.empty()) return true;
  if (now_ >= cycle_limit) {  // no budget left: the clock never moves back
    for (Active& a : active_) finish(a, false);
    return false;
  }
  Watchdog watchdog(params_.deadlock_cycles);
  watchdog.progress(now_);
  Cycle progress_at = now_;
  work_seen_ = useful_work();
  work_changed_at_ = livelock_look_at_ = now_;
  while (true) {
    if (clocks_.catch_up(now_)) progress_at = now_;  // memory-side domains first
    dispatcher_.dispatch(sms_, now_);                // CTAs onto SMs with room
    if (tick_sms(progress_at)) {
      dispatcher_.cta_retired();
      if (sampling_) sample_waves();  // at retirements only, never per cycle
    }
    if (streaming_) refill_streams();  // serial, in SM order: emulation writes device memory
    watchdog.progress(progress_at);
    if (sampling_ && !run_skipped_ctas(cycle_limit, poller)) return false;
    if (collect_finished(finished)) return jump_to_projected_end(cycle_limit);
    if (watch_copies_ && watched_copy_done()) return true;
    const Cycle next = next_cycle();
    if (next > watchdog.deadline() && now_ >= first_start()) report_deadlock(watchdog.last_progress());
    if (next >= livelock_look_at_) check_livelock();
    if (next >= cycle_limit || (poller && poller->check())) {
      if (next >= cycle_limit) now_ = cycle_limit;
      for (Active& a : active_) finish(a, false);
      return false;
    }
    now_ = next;
  }
}

void Gpu::cut_off() {
  for (Active& a : active_) finish(a, false);
}

bool Gpu::collect_finished(std::vector<stats::KernelRecord*>& finished) {
  bool any = false;
  for (Active& a : active_) {
    if (!a.kernel->finished()) continue;
    finish(a, true);
    finished.push_back(a.rec);
    any = true;
  }
  if (!any) return false;
  std::erase_if(active_, [](const Active& a) { return a.kernel->finished(); });
  dispatcher_.drop_finished();
  sampling_ = std::any_of(active_.begin(), active_.end(), [](const Active& a) { return a.sampler != nullptr; });
  return true;
}

// Times, and the kernel's counters: its stream slot's difference since launch.
void Gpu::finish(Active& a, bool complete) {
  for (auto& s : sms_) s->account(now_);
  stats::KernelRecord& rec = *a.rec;
  rec.status = complete ? stats::KernelStatus::Simulated : stats::KernelStatus::CutOff;
  rec.end_cycle = now_.count();
  rec.simulated_ctas = a.kernel->dispatched;
  if (complete && a.stopped) {  // sampled: the CTAs never dispatched are projected
    const Projection p = a.sampler->project(a.kernel->dispatched, now_.count());
    rec.status = stats::KernelStatus::Sampled;
    rec.simulated_end_cycle = now_.count();
    rec.end_cycle = p.end_cycle;
    rec.cycles_bound = p.bound;
    projected_end_ = std::max(projected_end_, p.end_cycle);
  }
  rec.first_cta_cycle = earliest(a.kernel->first_cta, now_).count();
  stats_->kernels->finish(a.row, a.mark);
  auto row = stats_->kernels->family_rows(events_family_).subspan(a.row * stats::kSmCounterFields,
                                                           stats::kSmCounterFields);
  static_assert(std::is_trivially_copyable_v<stats::SmCounters>);
  std::memcpy(static_cast<void*>(&rec.sm), row.data(), sizeof(rec.sm));
  memory_fields_from_rows(rec, *stats_->kernels, a.row);  // either memory model
}

bool Gpu::run_kernel(KernelSource& src, stats::KernelRecord& rec, Cycle cycle_limit) {
  launch(src, rec, 0, stats_->kernels->add_row());
  std::vector<stats::KernelRecord*> done;
  while (true) {
    if (!run_until_kernel_done(cycle_limit, done)) return false;
    if (std::find(done.begin(), done.end(), &rec) != done.end()) return true;
  }
}

std::string Gpu::describe() const {
  std::string names;
  for (const Active& a : active_) names += (names.empty() ? "'" : ", '") + a.rec->name + "'";
  std::string s = "gpu: cycle " + std::to_string(now_.count()) + ", kernel(s) " +
                  (names.empty() ? std::string("none") : names) + " in flight";
  for (const auto& k : dispatcher_.kernels())
    if (k->have_next) s += "; CTAs still waiting to launch";
  for (const auto& sm : sms_)
    if (sm->has_ctas() || sm->wake_cycle() != Clocked::kNever) s += "\n  gpu." + sm->describe();
  return s + clocks_.describe_busy();
}

void Gpu::report_deadlock(Cycle last_progress) const {
  throw DeadlockError("deadlock: no progress for " + std::to_string(params_.deadlock_cycles) +
                      " cycles (last progress at cycle " + std::to_string(last_progress.count()) +
                      ") while work is outstanding\n" + describe());
}

// Livelock: the clock runs (something retries every cycle, so the deadlock
// watchdog sees activity) but nothing useful happens. Useful work is what
// the SMs count when an instruction issues or an L1D / shared / constant
// access is served; retries and ticks are not. Looked at a few times per
// window, on the deterministic cycle count, so a run fails at the same cycle
// every time.
uint64_t Gpu::useful_work() const {
  uint64_t n = 0;
  std::span<const uint64_t> v = stats_->registry.family(events_family_).values();
  for (size_t i = 0; i + stats::kSmCounterFields <= v.size(); i += stats::kSmCounterFields) {
    stats::SmCounters c;
    std::memcpy(static_cast<void*>(&c), v.data() + i, sizeof c);
    n += c.warp_insts + c.l1d_hits + c.l1d_misses + c.l1d_writes + c.l1d_bypass + c.shmem_accesses +
         c.const_accesses + c.ctas_launched;
  }
  return n;
}

void Gpu::check_livelock() {
  const uint64_t window = params_.livelock_window_cycles;
  livelock_look_at_ = now_ + std::max<uint64_t>(1, window / 4);
  const uint64_t work = useful_work();
  if (work != work_seen_ || now_ < first_start()) {
    work_seen_ = work;
    work_changed_at_ = now_;
  } else if (now_ - work_changed_at_ >= window) {
    report_livelock();
  }
}

void Gpu::report_livelock() const {
  throw DeadlockError("livelock: cycles advance but no instruction issued and no memory access was "
                      "served for " + std::to_string(now_ - work_changed_at_) + " cycles (since cycle " +
                      std::to_string(work_changed_at_.count()) + ", livelock_window_cycles = " +
                      std::to_string(params_.livelock_window_cycles) + ")\n" + describe());
}

}  // namespace accelsim::sim
