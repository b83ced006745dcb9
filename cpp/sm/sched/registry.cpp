// Scheduler policies by name.
#include <algorithm>

#include "base/error.h"
#include "sm/sched/policies.h"

namespace accelsim::sm {

void WarpScheduler::remove_warp(uint16_t slot) {
  warps_.erase(std::remove(warps_.begin(), warps_.end(), slot), warps_.end());
  dirty_ = true;
}

std::unique_ptr<WarpScheduler> make_scheduler(const std::string& name,
                                              const SchedulerParams& params) {
  if (name == "lrr") return std::make_unique<LrrScheduler>();
  if (name == "gto") return std::make_unique<GtoScheduler>();
  if (name == "two_level") return std::make_unique<TwoLevelScheduler>(params.two_level_active);
  throw ConfigError("scheduler", "unknown warp scheduler '" + name +
                                     "'; known: lrr, gto, two_level");
}

}  // namespace accelsim::sm
