// What may stop a run before its end, besides the cycle budget: a hook the
// owner of the run (Python: Ctrl-C and progress reports) wants called now and
// then. The run loop pays one counter decrement per iteration; every
// kIterations iterations it reads the wall clock, and once per interval it
// calls the hook, which returns true to stop the run where it is.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>

namespace accelsim::sim {

// What a run has done so far (handed to the hook).
struct Progress {
  uint64_t cycles = 0;             // core clock now
  uint64_t warp_instructions = 0;  // issued so far, all kernels
  uint32_t kernels_done = 0;       // finished (or passed over as not selected)
  uint32_t kernels_total = 0;      // kernels in the workload
  bool copying = false;            // inside a host-to-device copy
  uint64_t ctas_done = 0;          // CTAs finished, of the kernels in flight
  uint64_t ctas_total = 0;         // CTAs in all, of the kernels in flight
};

class Poller {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr uint32_t kIterations = 256;  // loop iterations per clock read

  Poller() = default;
  Poller(std::function<bool()> hook, std::chrono::milliseconds interval)
      : hook_(std::move(hook)), interval_(interval), next_(Clock::now() + interval) {}

  // Once per loop iteration: true when the run must stop now.
  bool check() {
    if (!hook_ || --countdown_) return false;
    countdown_ = kIterations;
    return check_now();
  }
  // Reads the clock now (for loops whose iterations are long, e.g. copies).
  bool check_now() {
    if (!hook_ || stopped_) return stopped_;
    const Clock::time_point t = Clock::now();
    if (t < next_) return false;
    next_ = t + interval_;
    stopped_ = hook_();
    return stopped_;
  }
  bool stopped() const { return stopped_; }

 private:
  std::function<bool()> hook_;
  std::chrono::milliseconds interval_{50};
  Clock::time_point next_{};
  uint32_t countdown_ = kIterations;
  bool stopped_ = false;
};

}  // namespace accelsim::sim
