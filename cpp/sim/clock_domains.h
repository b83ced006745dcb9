// The GPU's clock domains (core, interconnect, L2, DRAM), each with its period
// in picoseconds, and the components ticked on the non-core domains. The run
// loop is driven by core cycles; before core cycle c it brings every other
// domain up to the time of c, ticking only components that asked for a tick.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "config/gpu_config.h"
#include "base/clocked.h"

namespace accelsim::sim {

class ClockDomains {
 public:
  // Same order as accelsim::ClockDomain (what components name when attaching).
  enum Id : uint8_t { kCore, kIcnt, kL2, kDram, kCount };
  static_assert(kCount == uint8_t(ClockDomain::count) && kL2 == uint8_t(ClockDomain::l2));
  explicit ClockDomains(const config::GpuConfig& cfg);

  uint64_t period_ps(Id d) const { return period_[d]; }
  // Time of a domain's cycle, and the first cycle of a domain at or after t.
  Picoseconds time_of(Id d, Cycle cycle) const { return ::accelsim::time_of(cycle, period_[d]); }
  Cycle cycle_at(Id d, Picoseconds t) const { return ::accelsim::cycle_at(t, period_[d]); }
  // Registers a component of a non-core domain (not owned).
  void attach(Id d, Clocked* c);
  // Ticks the attached components due at or before core cycle `core_cycle`.
  // Returns true if any ticked.
  bool catch_up(Cycle core_cycle);
  // The first core cycle at which an attached component needs a tick.
  Cycle next_core_cycle() const;
  bool has_components() const { return !components_.empty(); }
  // describe() of every attached component that still wants a tick.
  std::string describe_busy() const;

 private:
  struct Attached {
    Id domain;
    Clocked* component;
    Cycle cycle;  // its domain's next cycle not yet ticked
  };
  std::array<uint64_t, kCount> period_{};
  std::vector<Attached> components_;
};

}  // namespace accelsim::sim
