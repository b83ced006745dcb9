// Deadlock watchdog: work outstanding but no component made progress for
// `limit` cycles raises DeadlockError with a report of what waits on what.
#pragma once
#include <cstdint>

namespace accelsim::sim {

class Watchdog {
 public:
  explicit Watchdog(uint64_t limit) : limit_(limit) {}
  void progress(uint64_t now) { last_ = now > last_ ? now : last_; }
  uint64_t deadline() const { return last_ + limit_; }
  bool expired(uint64_t now) const { return now > deadline(); }
  uint64_t last_progress() const { return last_; }

 private:
  uint64_t limit_;
  uint64_t last_ = 0;
};

}  // namespace accelsim::sim
