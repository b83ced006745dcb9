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
    : isa_(std::move(isa)),
      work_(std::move(workload)),
      opts_(opts),
      gpu_(cfg, nullptr, stats_for(work_)),
      result_(empty_result(cfg)),
      stream_busy_(work_.streams.size(), 0),
      stream_blocked_(work_.streams.size(), 0) {
  result_.kernels.reserve(work_.kernels);  // records stay put: the GPU points at them
  sources_.resize(work_.kernels);
  result_.stats = gpu_.stats();
}

bool WorkloadRun::selected(const trace::KernelInfo& info) const {
  return opts_.kernels.empty() ||
         std::find(opts_.kernels.begin(), opts_.kernels.end(), info.id) != opts_.kernels.end();
}

// A record and a kernel-table row per kernel, in command order (row i is
// record i); filled in when the kernel launches and finishes.
size_t WorkloadRun::add_record(const WorkItem& item) {
  stats::KernelRecord& rec = result_.kernels.emplace_back();
  rec.id = item.info.id;
  rec.name = item.info.name;
  rec.stream = item.info.stream;
  rec.stream_slot = item.slot;
  gpu_.stats()->kernels->add_row();
  return result_.kernels.size() - 1;
}

// A kernel not chosen: its record says so (and its counters stay zero).
void WorkloadRun::skip(stats::KernelRecord& rec, const WorkItem& item) {
  rec.skipped = true;
  rec.grid_ctas = item.info.grid.count();
  rec.threads_per_cta = uint32_t(item.info.block.count());
  rec.launch_cycle = rec.start_cycle = rec.end_cycle = gpu_.now();
}

// Reads commands while the launch window has room.
void WorkloadRun::admit() {
  const size_t window = size_t(gpu_.config().max_concurrent_kernels);
  while (next_ < work_.items.size() && pending_.size() + gpu_.kernels_in_flight() < window) {
    WorkItem& item = work_.items[next_];
    if (item.kind == WorkItem::Kind::MemcpyHtoD) {
      // cudaMemcpy is synchronous on the legacy default stream: it starts
      // once everything before it has finished, and later commands wait.
      if (!pending_.empty() || gpu_.kernels_in_flight() > 0) break;
      gpu_.memcpy_to_device(item.address, item.bytes);
    } else if (!selected(item.info)) {
      skip(result_.kernels[add_record(item)], item);
    } else {
      pending_.push_back(Pending{next_, add_record(item)});
    }
    ++next_;
  }
}

// Launches, in command order, every admitted kernel whose stream is idle and
// has no earlier kernel still waiting.
void WorkloadRun::launch_ready() {
  std::fill(stream_blocked_.begin(), stream_blocked_.end(), 0);
  for (auto it = pending_.begin(); it != pending_.end();) {
    WorkItem& item = work_.items[it->item];
    if (stream_busy_[item.slot] || stream_blocked_[item.slot]) {
      stream_blocked_[item.slot] = 1;
      ++it;
      continue;
    }
    size_t index = it->record;
    sources_[index] = open_kernel(item, isa_.get());
    gpu_.launch(*sources_[index], result_.kernels[index], item.slot, index);
    stream_busy_[item.slot] = 1;
    it = pending_.erase(it);
  }
}

bool WorkloadRun::finish_run() {
  done_ = true;
  result_.total_cycles = gpu_.now();
  return !finished_.empty();
}

bool WorkloadRun::step() {
  finished_.clear();
  if (done_) return false;
  while (true) {
    admit();
    launch_ready();
    if (gpu_.kernels_in_flight() == 0) return finish_run();  // nothing left to run
    std::vector<stats::KernelRecord*> done;
    bool in_budget = gpu_.run_until_kernel_done(opts_.max_cycles, done);
    result_.total_cycles = gpu_.now();
    for (stats::KernelRecord* rec : done) {
      size_t index = size_t(rec - result_.kernels.data());
      stream_busy_[rec->stream_slot] = 0;
      rec->trace_warnings = sources_[index]->trace_warnings();
      sources_[index].reset();
      finished_.push_back(index);
    }
    if (!in_budget) {
      result_.completed = false;
      for (size_t i = 0; i < result_.kernels.size(); ++i)
        if (sources_[i]) finished_.push_back(i);  // partial records
      for (const Pending& p : pending_)  // admitted, never launched: not simulated
        result_.kernels[p.record].skipped = true;
      done_ = true;
      return true;
    }
    if (!finished_.empty()) return true;
  }
}

}  // namespace accelsim::sim
