#include "sim/workload_run.h"

#include <algorithm>

namespace accelsim::sim {

namespace {
std::shared_ptr<stats::RunStats> stats_for(const Workload& w) {
  auto s = std::make_shared<stats::RunStats>(w.streams.size());
  for (size_t i = 0; i < w.streams.size(); ++i) s->registry.set_stream_id(i, w.streams[i]);
  return s;
}
}  // namespace

WorkloadRun::WorkloadRun(const config::GpuConfig& cfg, std::shared_ptr<const isa::IsaRegistry> isa,
                         Workload workload, const RunOptions& opts)
    // (the workload is bound by reference: it moves only once the GPU is built)
    : WorkloadRun(std::make_shared<Gpu>(cfg, nullptr, stats_for(workload)), std::move(isa), std::move(workload),
                  opts) {
  cfg_ = std::make_unique<config::GpuConfig>(cfg);  // a flushed run builds a GPU per command
}

WorkloadRun::WorkloadRun(std::shared_ptr<Gpu> gpu, std::shared_ptr<const isa::IsaRegistry> isa,
                         Workload&& workload, const RunOptions& opts)
    : isa_(std::move(isa)),
      work_(std::move(workload)),
      opts_(opts),
      gpu_ptr_(std::move(gpu)),
      gpu_(gpu_ptr_.get()),
      first_row_(gpu_->stats()->kernels->rows()),
      end_(std::min(opts.end_command, work_.items.size())),
      result_(empty_result(gpu_->params())),
      next_(std::min(opts.first_command, end_)),
      stream_busy_(work_.streams.size(), 0),
      stream_blocked_(work_.streams.size(), 0) {
  result_.kernels.reserve(work_.kernels);  // records stay put: the GPU points at them
  sources_.resize(work_.kernels);
  record_warm_.reserve(work_.kernels);
  result_.stats = gpu_->stats();
  gpu_->set_intra_sampling(opts_.intra);
  std::sort(opts_.warmup.begin(), opts_.warmup.end());
  std::sort(opts_.replay.begin(), opts_.replay.end());
}

bool WorkloadRun::selected(const trace::KernelInfo& info) const {
  return opts_.kernels.empty() ||
         std::find(opts_.kernels.begin(), opts_.kernels.end(), info.id) != opts_.kernels.end();
}

bool WorkloadRun::warm(size_t item) const {
  return item < opts_.count_from || std::binary_search(opts_.warmup.begin(), opts_.warmup.end(), item) ||
         replayed(item);
}

bool WorkloadRun::replayed(size_t item) const {
  return std::binary_search(opts_.replay.begin(), opts_.replay.end(), item);
}

// A record and a kernel-table row per kernel, in command order (row i is
// record i); filled in when the kernel launches and finishes.
size_t WorkloadRun::add_record(const WorkItem& item) {
  stats::KernelRecord& rec = result_.kernels.emplace_back();
  rec.id = item.info.id;
  rec.name = item.info.name;
  rec.stream = item.info.stream;
  rec.stream_slot = item.slot;
  record_warm_.push_back(in_warm_);
  gpu_->stats()->kernels->add_row();  // row first_row_ + record index
  return result_.kernels.size() - 1;
}

size_t WorkloadRun::add_copy(const WorkItem& item) {
  CopyRecord& c = result_.copies.emplace_back();
  c.to_host = item.to_host();
  c.async = item.async;
  c.address = item.address;
  c.bytes = item.bytes;
  c.stream = item.stream;
  c.warmup = in_warm_;
  c.start_cycle = c.end_cycle = now();
  return result_.copies.size() - 1;
}

// An async copy starts on its engine; finish_copies notices its end.
void WorkloadRun::launch_copy(const WorkItem& item, size_t record) {
  result_.copies[record].start_cycle = now();
  if (item.on_start) item.on_start();
  gpu_->begin_copy(item.address, item.bytes, item.to_host());
  gpu_used_ = true;
  copy_[item.to_host()] = CopyInFlight{true, record, item.slot};
  stream_busy_[item.slot] = 1;
  watch_active_copies();
}

// Async copies whose engine is idle again are done (a copy with nothing to
// time, e.g. without memcpy_timing, ends where it starts). True if any.
bool WorkloadRun::finish_copies() {
  bool any = false;
  for (int dir = 0; dir < 2; ++dir) {
    CopyInFlight& c = copy_[dir];
    if (!c.active || gpu_->copying(dir == 1)) continue;
    CopyRecord& rec = result_.copies[c.record];
    rec.end_cycle = now();
    rec.done = true;
    stream_busy_[c.slot] = 0;
    c.active = false;
    any = true;
  }
  watch_active_copies();
  return any;
}

// A kernel not chosen: its record says so (and its counters stay zero).
void WorkloadRun::skip(stats::KernelRecord& rec, const WorkItem& item) {
  rec.skipped = true;
  rec.status = stats::KernelStatus::NotSelected;
  rec.grid_ctas = item.info.grid.count();
  rec.threads_per_cta = uint32_t(item.info.block.count());
  rec.launch_cycle = rec.start_cycle = rec.end_cycle = now();
}

// Reads commands while the launch window has room. False when a copy was
// stopped by the cycle budget or the poll hook.
bool WorkloadRun::admit() {
  const size_t window = size_t(gpu_->params().max_concurrent_kernels);
  while (next_ < end_ && pending_.size() + gpu_->kernels_in_flight() < window) {
    WorkItem& item = work_.items[next_];
    if (!ready_for(next_)) break;
    if (item.is_copy() && item.async) {
      pending_.push_back(Pending{next_, add_copy(item)});
    } else if (item.is_copy()) {
      // cudaMemcpy is synchronous on the legacy default stream: it starts
      // once everything before it has finished, and later commands wait.
      if (!idle()) break;
      if (!copy_started_) {
        copy_record_ = add_copy(item);
        if (item.on_start) item.on_start();
        gpu_->begin_copy(item.address, item.bytes, item.to_host());
        gpu_used_ = true;
      }
      copy_started_ = true;
      const bool finished = gpu_->run_copy(gpu_limit(), &poller_);
      result_.copies[copy_record_].end_cycle = now();
      if (!finished) return false;
      result_.copies[copy_record_].done = true;
      copy_started_ = false;
    } else if (!selected(item.info) && !warm(next_)) {
      skip(result_.kernels[add_record(item)], item);
      ++kernels_done_;
    } else if (replayed(next_)) {
      warm_functionally(item);
    } else {
      pending_.push_back(Pending{next_, add_record(item)});
    }
    ++next_;
  }
  return true;
}

// Launches, in command order, every admitted kernel or copy whose stream is
// idle and has no earlier command still waiting (a copy also needs its
// engine free).
void WorkloadRun::launch_ready() {
  std::fill(stream_blocked_.begin(), stream_blocked_.end(), 0);
  for (auto it = pending_.begin(); it != pending_.end();) {
    WorkItem& item = work_.items[it->item];
    if (stream_busy_[item.slot] || stream_blocked_[item.slot] ||
        (item.is_copy() && copy_[item.to_host()].active)) {
      stream_blocked_[item.slot] = 1;
      ++it;
      continue;
    }
    if (item.is_copy()) {
      launch_copy(item, it->record);
      it = pending_.erase(it);
      continue;
    }
    size_t index = it->record;
    sources_[index] = open_kernel(item, isa_.get());
    sources_[index]->watch(this);
    if (opts_.flush_caches) gpu_->invalidate_caches();
    gpu_->launch(*sources_[index], result_.kernels[index], item.slot, first_row_ + index);
    gpu_used_ = true;
    stream_busy_[item.slot] = 1;
    it = pending_.erase(it);
  }
}

bool WorkloadRun::finish_run() {
  done_ = true;
  result_.total_cycles = now();
  finish_warmup();
  return !finished_.empty();
}

// The budget ran out or the hook asked to stop: in-flight kernels are
// partial (cut off, finished by the GPU), and every kernel not launched
// gets a record saying why, so the table lists the whole workload.
bool WorkloadRun::stop_run(bool interrupted) {
  result_.completed = false;
  result_.interrupted = interrupted;
  result_.total_cycles = now();
  for (size_t i = 0; i < result_.kernels.size(); ++i)
    if (sources_[i]) {  // partial records
      to_run_clock(result_.kernels[i]);
      finished_.push_back(i);
    }
  auto not_reached = [this](stats::KernelRecord& rec) {
    rec.skipped = true;
    rec.status = stats::KernelStatus::NotReached;
    rec.launch_cycle = rec.start_cycle = rec.first_cta_cycle = rec.end_cycle = now();
  };
  for (const Pending& p : pending_) {
    if (!work_.items[p.item].is_copy()) {
      not_reached(result_.kernels[p.record]);
    } else {
      CopyRecord& c = result_.copies[p.record];
      c.start_cycle = c.end_cycle = now();
    }
  }
  pending_.clear();
  for (CopyInFlight& c : copy_)
    if (c.active) result_.copies[c.record].end_cycle = now();
  // A synchronous copy cut off has its record already (it is at next_);
  // copy_started_ stays set, so progress() still says where the run stopped.
  bool cut_copy = copy_started_;
  for (; next_ < end_; ++next_) {
    const WorkItem& item = work_.items[next_];
    if (item.is_copy()) {
      if (!cut_copy) add_copy(item);
      cut_copy = false;
      continue;
    }
    stats::KernelRecord& rec = result_.kernels[add_record(item)];
    if (selected(item.info) || warm(next_)) {
      not_reached(rec);
      rec.grid_ctas = item.info.grid.count();
      rec.threads_per_cta = uint32_t(item.info.block.count());
    } else {
      skip(rec, item);
    }
  }
  finish_warmup();
  done_ = true;
  return true;
}

void WorkloadRun::interrupt() {
  if (done_) return;
  finished_.clear();
  gpu_->cut_off();
  stop_run(true);
}

void WorkloadRun::set_poll(PollHook hook, std::chrono::milliseconds interval) {
  hook_ = std::move(hook);
  poller_ = hook_ ? Poller([this] { return hook_(progress()); }, interval) : Poller();
}

Progress WorkloadRun::progress() const {
  Progress p;
  p.cycles = now();
  p.warp_instructions = gpu_->warp_instructions();
  p.kernels_done = kernels_done_;
  p.kernels_total = uint32_t(work_.kernels);
  p.copying = copy_started_;
  gpu_->cta_progress(p.ctas_done, p.ctas_total);
  return p;
}

bool WorkloadRun::step() {
  finished_.clear();
  if (done_) return false;
  while (true) {
    if (!admit()) return stop_run(poller_.stopped());
    launch_ready();
    if (finish_copies()) continue;  // their streams may go on
    if (gpu_->kernels_in_flight() == 0 && !copies_in_flight()) {
      if (next_ >= end_ && pending_.empty()) return finish_run();  // nothing left to run
      continue;  // admit waited for the GPU to be idle (a flushed run, warm-up): it goes on now
    }
    if (gpu_->kernels_in_flight() == 0) {
      const bool in_budget = gpu_->run_copies(gpu_limit(), &poller_);
      result_.total_cycles = now();
      if (!in_budget) return stop_run(poller_.stopped());
      continue;
    }
    std::vector<stats::KernelRecord*> done;
    bool in_budget = gpu_->run_until_kernel_done(gpu_limit(), done, &poller_);
    result_.total_cycles = now();
    for (stats::KernelRecord* rec : done) {
      size_t index = size_t(rec - result_.kernels.data());
      stream_busy_[rec->stream_slot] = 0;
      rec->trace_warnings = sources_[index]->trace_warnings();
      if (record_warm_[index] && rec->status != stats::KernelStatus::CutOff) rec->status = stats::KernelStatus::Warmup;
      to_run_clock(*rec);
      sources_[index].reset();
      finished_.push_back(index);
      ++kernels_done_;
    }
    if (!in_budget) return stop_run(poller_.stopped());
    if (!finished_.empty()) return true;
  }
}

}  // namespace accelsim::sim
