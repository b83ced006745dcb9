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
  first_snapshot_ = gpu_->stats()->registry.snapshot();
  mark_snapshot_ = first_snapshot_;
  mark_row_ = 0;
  cut_window_.reset();
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

std::shared_ptr<stats::RunStats> GpuSession::stats_since_reset() const {
  return gpu_->stats()->since(first_snapshot_, 0, streams_.size());
}

void GpuSession::mark() {
  std::unique_lock<std::mutex> lock(mu_, std::try_to_lock);  // not inside a run: its counters move
  if (!lock.owns_lock()) throw Error("the device is in a run (from another thread?): cannot mark its counters");
  mark_snapshot_ = gpu_->stats()->registry.snapshot();
  mark_row_ = gpu_->stats()->kernels->rows();
  cut_window_.reset();
}

std::shared_ptr<stats::RunStats> GpuSession::stats_since_mark() const {
  if (cut_window_) return cut_window_;
  return gpu_->stats()->since(mark_snapshot_, mark_row_, streams_.size());
}

RunResult GpuSession::run(Workload workload, const RunOptions& opts, const PollHook& poll) {
  SessionRun r(*this, std::move(workload), opts);
  if (poll) r.run().set_poll(poll);
  try {
    while (r.run().step()) {
    }
  } catch (...) {
    r.fail();
    throw;
  }
  return r.finish();
}

std::unique_ptr<SessionRun> GpuSession::start(Workload workload, const RunOptions& opts) {
  return std::make_unique<SessionRun>(*this, std::move(workload), opts);
}

SessionRun::SessionRun(GpuSession& session, Workload workload, const RunOptions& opts)
    : session_(session), lock_(session.mu_, std::try_to_lock) {
  // A second run while one is open would wait for ever on its own thread.
  if (!lock_.owns_lock()) throw Error("the device is in another run (from another thread?): one run at a time");
  if (opts.flush || !opts.warmup.empty() || !opts.replay.empty() || opts.count_from || opts.first_command ||
      opts.end_command != SIZE_MAX)
    throw Error("a device session runs its commands as given: no flush, warm-up or command window");
  session_.map_streams(workload);
  Gpu& gpu = *session_.gpu_;
  t0_ = gpu.now().count();
  s0_ = gpu.stats()->registry.snapshot(session_.streams_.size());  // the streams finish() keeps
  row0_ = gpu.stats()->kernels->rows();
  RunOptions o = opts;  // the budget counts from this run's start
  if (o.max_cycles != UINT64_MAX) o.max_cycles = t0_ + std::min(o.max_cycles, UINT64_MAX - t0_ - 1);
  run_ = std::make_unique<WorkloadRun>(session_.gpu_, nullptr, std::move(workload), o);
}

WorkloadRun& SessionRun::run() {
  if (!run_) throw Error("this run of the device has ended (it failed or its result was taken)");
  return *run_;
}

SessionRun::~SessionRun() {
  if (!finished_) fail();
}

void SessionRun::fail() {
  if (finished_) return;
  finished_ = true;
  run_.reset();
  session_.reset();
  lock_.unlock();
}

RunResult SessionRun::finish() {
  RunResult r = run().result();
  finished_ = true;
  r.total_cycles -= t0_;
  r.stats = session_.gpu_->stats()->since(s0_, row0_, session_.streams_.size());
  run_.reset();
  if (!r.completed && session_.reset_after_cut_) {
    auto window = session_.stats_since_mark();  // the cut run ends the window: keep its totals
    session_.reset();
    session_.cut_window_ = std::move(window);
  }
  lock_.unlock();
  return r;
}

}  // namespace accelsim::sim
