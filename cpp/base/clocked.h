// The one contract of every clocked component (SM, interconnect, L2, DRAM,
// a whole memory model), and the one type for time. A component is ticked on
// the edges of its clock domain; it says when it next needs a tick, so an idle
// one costs nothing; and it describes what it waits on, which is all a
// deadlock or livelock report needs to say about it.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace accelsim {

// A count of cycles of one clock (core cycles unless a component's domain says
// otherwise). Unsigned: time starts at 0 and "never" is the largest value.
using Cycle = uint64_t;

// A clock's period in whole picoseconds (rounded): every domain keeps time in
// picoseconds so that hand-offs between domains are exact.
inline uint64_t period_ps_from_mhz(double mhz) { return uint64_t(std::llround(1e6 / mhz)); }

// The GPU's clock domains; a component names its domain when it attaches.
enum class ClockDomain : uint8_t { core, icnt, l2, dram, count };

class Clocked {
 public:
  static constexpr Cycle kNever = std::numeric_limits<Cycle>::max();
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
