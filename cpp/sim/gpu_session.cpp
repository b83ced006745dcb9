#include "sim/gpu_session.h"

#include <algorithm>
#include <string>

#include "base/error.h"
#include "sim/workload_run.h"

namespace accelsim::sim {

GpuSession::GpuSession(const config::GpuConfig& cfg, size_t max_streams)
    : cfg_(cfg), max_streams_(std::max<size_t>(1, max_streams)) {
  reset();
  resets_ = 0;
}

void GpuSession::reset() {
  gpu_ = std::make_shared<Gpu>(cfg_, nullptr, std::make_shared<stats::RunStats>(max_streams_));
  streams_.clear();
  ++resets_;
}

// The workload's dense slots become the session's: a stream keeps its slot
// (and counters) from one run to the next.
void GpuSession::map_streams(Workload& w) {
  for (WorkItem& it : w.items) {
    if (it.is_copy() && !it.async) continue;
    const uint64_t stream = it.is_copy() ? it.stream : it.info.stream;
    auto pos = std::find(streams_.begin(), streams_.end(), stream);
    if (pos == streams_.end()) {
      if (streams_.size() == max_streams_)
        throw ConfigError("streams", "a device may use at most " + std::to_string(max_streams_) +
                                         " streams over its life; stream " + std::to_string(stream) +
                                         " would be one more");
      gpu_->stats()->registry.set_stream_id(streams_.size(), stream);
      streams_.push_back(stream);
      pos = streams_.end() - 1;
    }
    it.slot = uint32_t(pos - streams_.begin());
  }
  w.streams = streams_;
  if (w.streams.empty()) w.streams.push_back(0);
}

RunResult GpuSession::run(Workload workload, const RunOptions& opts) {
  std::lock_guard<std::mutex> lock(mu_);
  if (opts.flush || !opts.warmup.empty() || !opts.replay.empty() || opts.count_from || opts.first_command || opts.end_command != SIZE_MAX)
    throw Error("a device session runs its commands as given: no flush, warm-up or command window");
  map_streams(workload);
  const uint64_t t0 = gpu_->now();
  const stats::Snapshot s0 = gpu_->stats()->registry.snapshot();
  const size_t row0 = gpu_->stats()->kernels->rows();
  RunOptions o = opts;  // the budget counts from this run's start
  if (o.max_cycles != UINT64_MAX) o.max_cycles = t0 + std::min(o.max_cycles, UINT64_MAX - t0 - 1);
  RunResult r;
  try {
    WorkloadRun run(gpu_, nullptr, std::move(workload), o);
    while (run.step()) {
    }
    r = run.result();
  } catch (...) {
    reset();  // the GPU is mid-kernel: nothing to go on from
    throw;
  }
  r.total_cycles -= t0;
  r.stats = gpu_->stats()->since(s0, row0, streams_.size());
  if (!r.completed) reset();
  return r;
}

}  // namespace accelsim::sim
