#include "sim/clock_domains.h"

#include <cmath>

namespace accelsim::sim {

namespace {
uint64_t period_from_mhz(double mhz) { return uint64_t(std::llround(1e6 / mhz)); }
}  // namespace

ClockDomains::ClockDomains(const config::GpuConfig& cfg) {
  period_[kCore] = period_from_mhz(cfg.core_clock);
  period_[kIcnt] = period_from_mhz(cfg.icnt_clock);
  period_[kL2] = period_from_mhz(cfg.l2_clock);
  period_[kDram] = period_from_mhz(cfg.dram_clock);
}

}  // namespace accelsim::sim
