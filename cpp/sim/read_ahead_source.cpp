#include "sim/read_ahead_source.h"

#include <utility>

namespace accelsim::sim {

ReadAheadSource::ReadAheadSource(KernelSource& inner, size_t depth)
    : inner_(inner), depth_(depth < 1 ? 1 : depth), thread_([this] { run(); }) {}

ReadAheadSource::~ReadAheadSource() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void ReadAheadSource::run() {
  while (true) {
    trace::ThreadBlockTrace buf;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return stop_ || ready_.size() < depth_; });
      if (stop_) return;
      if (!spare_.empty()) {
        buf = std::move(spare_.back());
        spare_.pop_back();
      }
    }
    bool more = false;
    std::exception_ptr error;
    try {
      more = inner_.next_block(buf);
    } catch (...) {
      error = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (more && !error) {
        ready_.push_back(std::move(buf));
      } else {
        error_ = error;
        done_ = true;
      }
    }
    changed_.notify_all();
    if (!more || error) return;
  }
}

bool ReadAheadSource::next_block(trace::ThreadBlockTrace& out) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return !ready_.empty() || done_; });
  if (ready_.empty()) {
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    return false;
  }
  spare_.push_back(std::move(out));
  out = std::move(ready_.front());
  ready_.pop_front();
  lock.unlock();
  changed_.notify_all();
  return true;
}

}  // namespace accelsim::sim
