#include "sim/worker_pool.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#ifdef __linux__
#include <sched.h>
#endif

namespace accelsim::sim {

namespace {
// Spin this many times before sleeping: a phase is a few microseconds, a
// futex wake-up about as long again.
constexpr int kSpins = 4000;

template <class T, class Pred>
void spin_then_wait(std::atomic<T>& a, Pred done) {
  for (int i = 0; i < kSpins; ++i) {
    T v = a.load(std::memory_order_acquire);
    if (done(v)) return;
    if (i > kSpins / 2) std::this_thread::yield();
  }
  for (T v = a.load(std::memory_order_acquire); !done(v); v = a.load(std::memory_order_acquire))
    a.wait(v, std::memory_order_acquire);
}
}  // namespace

unsigned usable_cores() {
#ifdef __linux__
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return unsigned(n);
  }
#endif
  unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? hw : 1;
}

unsigned busy_cores_from(const std::string& line) {
  // "load1 load5 load15 running/total last_pid"; running counts the caller.
  double load1 = 0;
  long running = 0, total = 0;
  if (std::sscanf(line.c_str(), "%lf %*f %*f %ld/%ld", &load1, &running, &total) != 3) return 0;
  const double busy = std::max(std::floor(load1 - 0.5), double(running - 1));
  return busy > 0 ? unsigned(std::min(busy, 1e6)) : 0u;
}

unsigned busy_cores() {
  std::ifstream in("/proc/loadavg");
  std::string line;
  return in && std::getline(in, line) ? busy_cores_from(line) : 0u;
}

WorkerPool::WorkerPool(unsigned threads) {
  for (unsigned t = 1; t < threads; ++t) helpers_.emplace_back([this] { helper_loop(); });
}

WorkerPool::~WorkerPool() {
  stop_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  generation_.notify_all();
  for (auto& t : helpers_) t.join();
}

void WorkerPool::work() {
  for (size_t i = next_.fetch_add(1, std::memory_order_relaxed); i < n_;
       i = next_.fetch_add(1, std::memory_order_relaxed)) {
    try {
      task_(ctx_, i);
    } catch (...) {
      if (!failed_.exchange(true)) error_ = std::current_exception();
    }
  }
}

void WorkerPool::helper_loop() {
  uint64_t seen = 0;
  while (true) {
    spin_then_wait(generation_, [seen](uint64_t g) { return g != seen; });
    seen = generation_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_acquire)) return;
    work();
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
  }
}

void WorkerPool::run(size_t n, Task task, void* ctx) {
  if (helpers_.empty() || n < 2) {  // nothing to share
    for (size_t i = 0; i < n; ++i) task(ctx, i);
    return;
  }
  n_ = n;
  task_ = task;
  ctx_ = ctx;
  next_.store(0, std::memory_order_relaxed);
  pending_.store(uint32_t(helpers_.size()), std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_acq_rel);  // publishes the phase
  generation_.notify_all();
  work();
  spin_then_wait(pending_, [](uint32_t p) { return p == 0; });
  if (failed_.exchange(false)) {
    std::exception_ptr e = error_;
    error_ = nullptr;
    std::rethrow_exception(e);
  }
}

}  // namespace accelsim::sim
