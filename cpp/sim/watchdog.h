// Deadlock watchdog: work outstanding but no component made progress for
// `limit` cycles raises DeadlockError with a report of what waits on what.
#pragma once
#include <cstdint>

#include "base/time.h"

namespace accelsim::sim {

class Watchdog {
 public:
  explicit Watchdog(uint64_t limit) : limit_(limit) {}
  void progress(Cycle now) { last_ = now > last_ ? now : last_; }
  Cycle deadline() const { return last_ + limit_; }
  bool expired(Cycle now) const { return now > deadline(); }
  Cycle last_progress() const { return last_; }

 private:
  uint64_t limit_;
  Cycle last_{0};
};

}  // namespace accelsim::sim
