#include "sim/thread_backoff.h"

namespace accelsim::sim {

// start: the first window warms caches and the pool up, unmeasured; then a
// parallel window, a sequential window, a decision, kRunWindows windows of
// the winner, and again from the parallel window.
void ThreadBackoff::window_end(int64_t now_ns) {
  cycles_ = 0;
  const int64_t took = now_ns - last_ns_;
  last_ns_ = now_ns;
  switch (phase_) {
    case Phase::start:
    case Phase::run:
      if (phase_ == Phase::run && ++windows_run_ < run_windows_) return;
      phase_ = Phase::time_parallel;
      parallel_ = true;
      return;
    case Phase::time_parallel:
      parallel_ns_ = took;
      phase_ = Phase::time_sequential;
      parallel_ = false;
      return;
    case Phase::time_sequential:
      ++probes_;
      parallel_ = double(parallel_ns_) < double(took) * (1.0 - kMinGain);
      parallel_wins_ += parallel_ ? 1 : 0;
      phase_ = Phase::run;
      windows_run_ = 0;
      return;
  }
}

}  // namespace accelsim::sim
