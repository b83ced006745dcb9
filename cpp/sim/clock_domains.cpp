#include "sim/clock_domains.h"

#include <algorithm>

namespace accelsim::sim {

ClockDomains::ClockDomains(const config::GpuConfig& cfg) {
  period_[kCore] = period_ps_from_mhz(cfg.core_clock);
  period_[kIcnt] = period_ps_from_mhz(cfg.icnt_clock);
  period_[kL2] = period_ps_from_mhz(cfg.l2_clock);
  period_[kDram] = period_ps_from_mhz(cfg.dram_clock);
}

void ClockDomains::attach(Id d, Clocked* c) { components_.push_back(Attached{d, c, 0}); }

bool ClockDomains::catch_up(uint64_t core_cycle) {
  bool ticked = false;
  uint64_t t = time_of(kCore, core_cycle);
  for (Attached& a : components_) {
    // Tick the edges of its domain up to time t that it asked for.
    for (uint64_t want = a.component->next_tick(a.cycle);
         want != Clocked::kNever && time_of(a.domain, want) <= t;
         want = a.component->next_tick(a.cycle)) {
      a.component->tick(want);
      a.cycle = want + 1;
      ticked = true;
    }
    a.cycle = std::max(a.cycle, cycle_at(a.domain, t + 1));
  }
  return ticked;
}

uint64_t ClockDomains::next_core_cycle() const {
  uint64_t best = Clocked::kNever;
  for (const Attached& a : components_) {
    uint64_t want = a.component->next_tick(a.cycle);
    if (want != Clocked::kNever) best = std::min(best, cycle_at(kCore, time_of(a.domain, want)));
  }
  return best;
}

std::string ClockDomains::describe_busy() const {
  std::string out;
  for (const Attached& a : components_)
    if (a.component->next_tick(a.cycle) != Clocked::kNever) out += "\n  " + a.component->describe();
  return out;
}

}  // namespace accelsim::sim
