// The GPU's clock domains (core, interconnect, L2, DRAM), each with its period
// in picoseconds. The run loop advances simulated time to the next edge of a
// domain that has work; a domain's cycle count follows from the time.
#pragma once
#include <array>
#include <cstdint>

#include "config/gpu_config.h"

namespace accelsim::sim {

class ClockDomains {
 public:
  enum Id : uint8_t { kCore, kIcnt, kL2, kDram, kCount };
  explicit ClockDomains(const config::GpuConfig& cfg);

  uint64_t period_ps(Id d) const { return period_[d]; }
  // Time of a domain's cycle, and the first cycle of a domain at or after t.
  uint64_t time_of(Id d, uint64_t cycle) const { return cycle * period_[d]; }
  uint64_t cycle_at(Id d, uint64_t t_ps) const { return (t_ps + period_[d] - 1) / period_[d]; }
  // Cycles of `d` that elapse during `core_cycles` core cycles.
  uint64_t convert(uint64_t core_cycles, Id d) const {
    return time_of(kCore, core_cycles) / period_[d];
  }

 private:
  std::array<uint64_t, kCount> period_{};
};

}  // namespace accelsim::sim
