// A persistent pool of worker threads for one GPU: run(n, fn) calls fn(i) for
// every i in [0, n) across the caller and the helpers, and returns when all
// are done. Threads are created once; a phase costs two synchronisations
// (start: a generation counter; end: a pending count), each spun briefly and
// then slept on (C++20 atomic wait), never a thread start. Which thread runs
// which i is left to timing: callers make fn(i) independent of that.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <thread>
#include <vector>

namespace accelsim::sim {

class WorkerPool {
 public:
  using Task = void (*)(void* ctx, size_t i);
  // `threads` in all, the caller included (>= 1).
  explicit WorkerPool(unsigned threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  unsigned threads() const { return unsigned(helpers_.size()) + 1; }
  // Runs task(ctx, i) for i in [0, n); rethrows the first exception a task
  // threw (the others still ran).
  void run(size_t n, Task task, void* ctx);

 private:
  void helper_loop();
  void work();

  std::vector<std::thread> helpers_;
  std::atomic<uint64_t> generation_{0};
  std::atomic<uint32_t> pending_{0};
  std::atomic<size_t> next_{0};
  std::atomic<bool> stop_{false};
  size_t n_ = 0;
  Task task_ = nullptr;
  void* ctx_ = nullptr;
  std::atomic<bool> failed_{false};
  std::exception_ptr error_;
};

// Threads this process may run on (its CPU affinity), at least 1.
unsigned usable_cores();

// Cores other work keeps busy, from a `/proc/loadavg` line: the larger of
// the runnable tasks now besides the caller and the one-minute load less
// half a core (the caller's own recent work); 0 when it cannot be read.
unsigned busy_cores();
unsigned busy_cores_from(const std::string& loadavg_line);

}  // namespace accelsim::sim
