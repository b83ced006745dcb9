// A component ticked on the edges of one clock domain (interconnect, L2,
// DRAM, ...). It says when it next needs a tick, so an idle one costs nothing.
#pragma once
#include <cstdint>
#include <limits>
#include <string>

namespace accelsim {

class Clocked {
 public:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
  virtual ~Clocked() = default;
  // One cycle of this component's own clock.
  virtual void tick(uint64_t cycle) = 0;
  // The earliest own-clock cycle >= `cycle` at which it needs a tick, or kNever.
  virtual uint64_t next_tick(uint64_t cycle) const = 0;
  // Hierarchical name and what it waits on (deadlock reports).
  virtual std::string describe() const = 0;
};

}  // namespace accelsim
