// Scheduler policies by name (each registers itself; see warp_scheduler.h).
#include <algorithm>

#include "sm/sched/warp_scheduler.h"

namespace accelsim::sm {

void WarpScheduler::remove_warp(uint16_t slot) {
  warps_.erase(std::remove(warps_.begin(), warps_.end(), slot), warps_.end());
  dirty_ = true;
}

std::unique_ptr<WarpScheduler> make_scheduler(const std::string& name,
                                              const SchedulerParams& params) {
  return SchedulerRegistry::find(name, "scheduler").make(params);
}

}  // namespace accelsim::sm
