// The one contract of every clocked component (SM, interconnect, L2, DRAM,
// a whole memory model), on typed time (base/time.h). A component is ticked on
// the edges of its clock domain; it says when it next needs a tick, so an idle
// one costs nothing; and it describes what it waits on, which is all a
// deadlock or livelock report needs to say about it.
#pragma once
#include <cstdint>
#include <string>

#include "base/time.h"

namespace accelsim {

// The GPU's clock domains; a component names its domain when it attaches.
enum class ClockDomain : uint8_t { core, icnt, l2, dram, count };

class Clocked {
 public:
  static constexpr Cycle kNever = Cycle::max();
  virtual ~Clocked() = default;
  // One cycle of this component's own clock.
  virtual void tick(Cycle cycle) = 0;
  // The earliest own-clock cycle >= `cycle` at which it needs a tick, or kNever.
  virtual Cycle next_tick(Cycle cycle) const = 0;
  // Hierarchical name and what it waits on (deadlock and livelock reports);
  // one line per part, parts indented under their owner.
  virtual std::string describe() const = 0;
};

}  // namespace accelsim
