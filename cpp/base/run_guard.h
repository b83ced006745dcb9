// What long work inside one simulated step asks the run it belongs to: PTX
// emulation may run far ahead of the timing model (a warp emulated on to a
// barrier, a whole block at once), and an endless loop there must still stop
// on Ctrl-C and at the cycle budget. Implemented by the run (sim::WorkloadRun)
// and handed down to whoever produces records; the base layer holds it so
// that both sides can see it.
#pragma once
#include <cstdint>

namespace accelsim {

class RunGuard {
 public:
  // Polled every few thousand emulated instructions (it reads the wall clock
  // only now and then): true once the run has been asked to stop.
  virtual bool stop_requested() = 0;
  // Core cycles the budget still allows. A warp issues at most one record a
  // cycle, so records further ahead than this can never be timed.
  virtual uint64_t cycles_left() const = 0;

 protected:
  ~RunGuard() = default;
};

}  // namespace accelsim
