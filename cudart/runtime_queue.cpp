// The Runtime's queue: launches and copies in program order, run on the GPU
// session at synchronization points; streams and events on top of it.
#include <chrono>
#include <cstring>

#include "base/error.h"
#include "runtime.h"
#include "api.h"
#include "signals.h"

namespace accelsim::cudart {

namespace {

// cudaStreamLegacy / cudaStreamPerThread are small integer handles.
constexpr uintptr_t kLegacyHandle = 0x1, kPerThreadHandle = 0x2;
constexpr uint64_t kPerThreadStream = uint64_t(1) << 62;  // per-thread default streams: from here up

}  // namespace

uint64_t Runtime::stream_id(cudaStream_t s) const {
  const auto h = reinterpret_cast<uintptr_t>(s);
  if (h == 0 || h == kLegacyHandle) return 0;
  if (h == kPerThreadHandle) {
    thread_local uint64_t mine = 0;
    static std::atomic<uint64_t> next{kPerThreadStream};
    if (!mine) mine = next++;
    return mine;
  }
  return reinterpret_cast<const Stream*>(s)->id;
}

Stream* Runtime::new_stream(unsigned flags, int priority) {
  auto s = std::make_unique<Stream>();
  s->id = next_stream_++;
  s->nonblocking = (flags & cudaStreamNonBlocking) != 0;
  s->priority = priority;
  streams_.push_back(std::move(s));
  return streams_.back().get();
}

void Runtime::destroy_stream(Stream* s) {
  for (auto& p : streams_)
    if (p.get() == s) {
      s->id = UINT64_MAX;  // a stale handle names no stream; the object stays (it may still be queued)
      return;
    }
}

bool Runtime::stream_idle(uint64_t stream) const { return !last_of_stream_.count(stream); }

// CUDA's legacy default stream (0) waits for all work of blocking streams,
// and their work waits for it. Both sides of such an edge are run apart:
// the queue runs first, so the command after the edge starts after
// everything before it ended (the clock goes on from there).
void Runtime::flush_for_stream_order(uint64_t stream) {
  auto blocking = [this](uint64_t id) {
    if (id == 0) return false;
    for (const auto& s : streams_)
      if (s->id == id) return !s->nonblocking;
    return true;  // per-thread default streams block on the legacy stream too
  };
  bool edge = false;
  for (const auto& [id, idx] : last_of_stream_) {
    (void)idx;
    if (stream == 0 ? blocking(id) : (id == 0 && blocking(stream))) edge = true;
  }
  if (edge) run_queue();
}

cudaError_t Runtime::launch(Kernel& k, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t stream) {
  const ptx::Function* fn = &function(k);
  const uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (threads == 0 || threads > 1024 || block.z > 64 || grid.x == 0 || grid.y == 0 || grid.z == 0 ||
      grid.y > 65535 || grid.z > 65535)
    return fail(cudaErrorInvalidConfiguration);
  sim::PtxLaunchCommand c;
  c.module = k.fatbin->module;
  c.kernel = k.name;
  c.grid = {grid.x, grid.y, grid.z};
  c.block = {block.x, block.y, block.z};
  c.dyn_shared = uint32_t(shared);
  uint32_t size = 0;
  for (const ptx::Param& p : fn->params) size = std::max(size, p.offset + p.size);
  c.params.assign(size, 0);
  for (size_t i = 0; i < fn->params.size(); ++i) {
    if (!args || !args[i]) return fail(cudaErrorInvalidValue);
    std::memcpy(c.params.data() + fn->params[i].offset, args[i], fn->params[i].size);
  }
  c.globals = k.fatbin->globals;
  c.memory = mem_;
  c.stream = stream_id(stream);
  c.regs_per_thread = regs_per_thread_;
  c.records = records_;
  if (auto g = k.fatbin->sass.find(k.name); g != k.fatbin->sass.end()) {  // records=sass
    c.sass = g->second.sass;
    c.regs_per_thread = g->second.registers ? g->second.registers : regs_per_thread_;
    c.static_shared = g->second.static_shared;
  }
  c.sm_count = uint32_t(cfg_.sm_count);
  c.max_warp_insts = max_warp_insts_;
  flush_for_stream_order(c.stream);
  QueuedInfo info;
  info.kind = QueuedInfo::kKernel;
  info.stream = c.stream;
  last_of_stream_[c.stream] = queue_.size();
  queue_.emplace_back(std::move(c));
  queued_.push_back(std::move(info));
  return cudaSuccess;
}

void Runtime::enqueue_copy(sim::CopyCommand c, QueuedInfo::Kind kind, uint64_t stream, bool sync, uint64_t bytes) {
  c.memory = mem_;
  if (!sync) {
    c.stream = stream;
    flush_for_stream_order(stream);
  }
  QueuedInfo info;
  info.kind = kind;
  info.stream = stream;
  info.sync = sync;
  info.bytes = bytes;
  if (sync) {  // a synchronous copy ends every stream's queue: everything after waits for it
    last_of_stream_.clear();
    last_of_stream_[0] = queue_.size();
  } else {
    last_of_stream_[stream] = queue_.size();
  }
  queue_.emplace_back(std::move(c));
  queued_.push_back(std::move(info));
}

void Runtime::synchronize() {
  if (!queue_.empty()) run_queue();
}

void Runtime::record_event(Event& e, cudaStream_t stream) {
  const uint64_t s = stream_id(stream);
  e.recorded = true;
  e.pending.reset();
  // the legacy stream's point is after everything queued so far
  std::optional<size_t> last;
  if (s == 0) {
    if (!queue_.empty()) last = queue_.size() - 1;
  } else if (auto it = last_of_stream_.find(s); it != last_of_stream_.end()) {
    last = it->second;
  }
  if (last) {
    e.pending = *last;
    queued_[*last].events.push_back(&e);
  } else {
    e.cycle = now_cycles();
  }
}

void Runtime::stream_wait(cudaStream_t stream, Event& e) {
  // the waiting stream's later work must start after the event's command:
  // running the queue now orders them (conservatively: everything before).
  if (e.pending && queued_[*e.pending].stream != stream_id(stream)) run_queue();
}

// The emulator's hints name the Python Device's settings; a program under
// `accelsim cuda` sets the same limits with the launcher's options.
std::string Runtime::for_the_launcher(std::string msg) {
  const std::string device_hint = "Device(max_warp_insts=...)";
  if (auto at = msg.find(device_hint); at != std::string::npos)
    msg.replace(at, device_hint.size(), "accelsim cuda --max-warp-insts N (now " + std::to_string(max_warp_insts_) + ")");
  return msg;
}

// Runs the queue as one run of the session. Times come back on the GPU's
// clock; events marking queued commands take their command's end.
void Runtime::run_queue() {
  if (queue_.empty()) return;
  sim::PtxRunOptions opts;
  opts.binary_version = arch_;
  opts.first_id = next_kernel_id_;
  opts.run.flush_caches = flush_caches_;
  opts.run.intra = intra_;
  const uint64_t now = session_->now().count();
  if (max_cycles_ != UINT64_MAX) {
    if (now >= max_cycles_) fatal("stopped at --max-cycles " + std::to_string(max_cycles_), 124);
    opts.run.max_cycles = max_cycles_ - now;
  }
  opts.poll = [](const sim::Progress&) { return interrupt_requested(); };
  std::vector<sim::PtxCommand> queue;
  queue.swap(queue_);
  std::vector<QueuedInfo> info;
  info.swap(queued_);
  last_of_stream_.clear();
  sim::RunResult r;
  const double t0 = wall_seconds();
  try {
    if (!trace_dir_.empty()) {  // --save-trace: emulate and dump instead of timing
      dump_queue(queue, info);
      sim_wall_s_ += wall_seconds() - t0;
      ++runs_;
      return;
    }
    r = sim::run_ptx_commands(*session_, *tables_, std::move(queue), opts);
  } catch (const std::exception& e) {
    fatal("simulation failed: " + for_the_launcher(e.what()));
  }
  sim_wall_s_ += wall_seconds() - t0;
  ++runs_;
  facts_ = sim::empty_result_like(r);
  absorb(r, info);
  // A run too short to reach a poll still ends here: the program's own loop
  // holds the API lock so often that the signal watcher may never get it.
  if (r.interrupted || interrupt_requested()) fatal("interrupted (Ctrl-C): the result holds the run so far", 130);
  if (!r.completed) fatal("stopped at --max-cycles " + std::to_string(max_cycles_) + ": the result holds the run so far",
                          124);
}

// Appends the run's kernels and copies to the program's result and resolves
// the events that marked them.
void Runtime::absorb(const sim::RunResult& r, std::vector<QueuedInfo>& info) {
  size_t k = 0, c = 0;
  for (QueuedInfo& q : info) {
    uint64_t end = session_->now().count();
    if (q.kind == QueuedInfo::kKernel) {
      if (k < r.kernels.size()) {
        stats::KernelRecord rec = r.kernels[k++];
        end = rec.end_cycle;
        kernel_records_.push_back(std::move(rec));
        ++next_kernel_id_;
      }
    } else if (c < r.copies.size()) {
      static const char* names[] = {"", "HtoD", "DtoH", "DtoD", "Memset"};
      sim::CopyRecord rec = r.copies[c++];
      end = rec.end_cycle;
      rec.bytes = q.bytes;
      copies_.push_back({names[q.kind], rec});
    }
    stream_end_[q.stream] = end;
    for (Event* e : q.events) {
      e->cycle = end;
      e->pending.reset();
    }
  }
}

}  // namespace accelsim::cudart
