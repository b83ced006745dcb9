// Typed time, as ChampSim's chrono.h keeps it: a count of one clock's cycles
// (Cycle) and a count of picoseconds (Picoseconds) are distinct types, so one
// cannot be passed where the other is meant. Between them stands a clock
// period: time_of(cycle, period) and cycle_at(t, period). Within one type,
// adding a plain count moves a time, and two times subtract to a plain count.
// Each is a single uint64_t: it costs what the bare integer did.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

namespace accelsim {

template <class Tag>
class Ticks {
 public:
  constexpr Ticks() = default;
  constexpr explicit Ticks(uint64_t n) : n_(n) {}
  constexpr uint64_t count() const { return n_; }
  // The largest value: "never", "idle", "no limit".
  static constexpr Ticks max() { return Ticks(std::numeric_limits<uint64_t>::max()); }

  // Spelled out rather than a defaulted <=>: each compiles to one integer
  // compare, as the bare integers did (a defaulted <=> costs a few percent in
  // the L2 loop with GCC 12).
  friend constexpr bool operator==(Ticks a, Ticks b) { return a.n_ == b.n_; }
  friend constexpr bool operator!=(Ticks a, Ticks b) { return a.n_ != b.n_; }
  friend constexpr bool operator<(Ticks a, Ticks b) { return a.n_ < b.n_; }
  friend constexpr bool operator<=(Ticks a, Ticks b) { return a.n_ <= b.n_; }
  friend constexpr bool operator>(Ticks a, Ticks b) { return a.n_ > b.n_; }
  friend constexpr bool operator>=(Ticks a, Ticks b) { return a.n_ >= b.n_; }
  friend constexpr Ticks operator+(Ticks t, uint64_t n) { return Ticks(t.n_ + n); }
  friend constexpr Ticks operator-(Ticks t, uint64_t n) { return Ticks(t.n_ - n); }
  friend constexpr uint64_t operator-(Ticks a, Ticks b) { return a.n_ - b.n_; }
  constexpr Ticks& operator+=(uint64_t n) {
    n_ += n;
    return *this;
  }
  constexpr Ticks& operator++() {
    ++n_;
    return *this;
  }

 private:
  uint64_t n_ = 0;
};

// Cycles of one clock (core cycles unless a component's domain says otherwise).
using Cycle = Ticks<struct CycleTag>;
// Absolute time in picoseconds: every clock domain's edges are placed on it.
using Picoseconds = Ticks<struct PicosecondsTag>;

// The earlier / later of two times, by value. Use these, not std::min /
// std::max, on times: those return a reference, which makes GCC keep a loop's
// running minimum in memory (a few percent in the detailed memory's L2 loop).
template <class Tag>
constexpr Ticks<Tag> earliest(Ticks<Tag> a, Ticks<Tag> b) { return b < a ? b : a; }
template <class Tag>
constexpr Ticks<Tag> latest(Ticks<Tag> a, Ticks<Tag> b) { return a < b ? b : a; }

// A clock's period in whole picoseconds (rounded).
inline uint64_t period_ps_from_mhz(double mhz) { return uint64_t(std::llround(1e6 / mhz)); }

// The time of cycle `c` of a clock with period `period_ps`, and the first
// cycle of that clock at or after `t` (its edge at or after t).
constexpr Picoseconds time_of(Cycle c, uint64_t period_ps) { return Picoseconds(c.count() * period_ps); }
constexpr Cycle cycle_at(Picoseconds t, uint64_t period_ps) {
  return Cycle((t.count() + period_ps - 1) / period_ps);
}
// The cycle an edge at time `t` belongs to (t on an edge: that edge's cycle).
constexpr Cycle cycle_of(Picoseconds t, uint64_t period_ps) { return Cycle(t.count() / period_ps); }

namespace literals {
// 5_cy: a cycle count written in code (tests, fixed schedules).
constexpr Cycle operator""_cy(unsigned long long n) { return Cycle(n); }
}  // namespace literals

}  // namespace accelsim
