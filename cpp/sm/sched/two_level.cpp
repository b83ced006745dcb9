// Two-level: round robin inside a small active set; a warp that waits on a
// long-latency result drops to the back of the list (the pending set).
#include "sm/sched/policies.h"

#include <algorithm>

namespace accelsim::sm {

void TwoLevelScheduler::build_order(std::vector<uint16_t>& out) const {
  out.clear();
  size_t active = std::min<size_t>(active_size_, warps_.size()), start = 0;
  for (size_t i = 0; i < active; ++i)
    if (warps_[i] == last_) start = i + 1;
  for (size_t i = 0; i < active; ++i) out.push_back(warps_[(start + i) % active]);
}

void TwoLevelScheduler::long_stall(uint16_t slot) {
  size_t active = std::min<size_t>(active_size_, warps_.size());
  auto it = std::find(warps_.begin(), warps_.begin() + active, slot);
  if (it == warps_.begin() + active || warps_.size() <= active) return;
  warps_.erase(it);
  warps_.push_back(slot);
  dirty_ = true;
}

}  // namespace accelsim::sm
