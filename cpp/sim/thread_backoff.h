// Whether the parallel SM phase pays for itself right now (`threads: 0`).
// Threads help only while other processes leave cores idle: on a loaded
// machine every cycle's barrier waits for whichever worker the kernel has
// descheduled, and the run gets slower than on one thread. So an automatic
// run times windows of cycles on the wall clock, alternately with the
// parallel phase and with the SMs ticked one after another (the same
// computation either way: the choice never changes a result), keeps the
// faster for a while, and then measures again, as the load may have changed.
#pragma once
#include <cstdint>

namespace accelsim::sim {

class ThreadBackoff {
 public:
  // Cycles (calls to count()) per measured window, and how many windows the
  // winner then runs before the next measurement.
  static constexpr uint32_t kWindowCycles = 8192;
  static constexpr uint32_t kRunWindows = 15;
  // Parallel must beat sequential by this fraction to be kept: a tie goes
  // to the cheaper (one core) choice.
  static constexpr double kMinGain = 0.05;

  explicit ThreadBackoff(uint32_t window_cycles = kWindowCycles, uint32_t run_windows = kRunWindows)
      : window_(window_cycles), run_windows_(run_windows) {}

  bool parallel() const { return parallel_; }
  // Counts one cycle; true when a window ends: the caller then reads the
  // clock and passes it to window_end.
  bool count() { return ++cycles_ >= window_; }
  void window_end(int64_t now_ns);

  // Measurements taken, and how many of them the parallel phase won.
  uint32_t probes() const { return probes_; }
  uint32_t parallel_wins() const { return parallel_wins_; }

 private:
  enum class Phase : uint8_t { start, time_parallel, time_sequential, run };

  uint32_t window_, run_windows_;
  uint32_t cycles_ = 0;
  uint32_t windows_run_ = 0;
  Phase phase_ = Phase::start;
  bool parallel_ = true;
  int64_t last_ns_ = 0;
  int64_t parallel_ns_ = 0;
  uint32_t probes_ = 0, parallel_wins_ = 0;
};

}  // namespace accelsim::sim
