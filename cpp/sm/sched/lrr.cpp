// Loose round robin: start after the warp that issued last.
#include "sm/sched/policies.h"

namespace accelsim::sm {

void LrrScheduler::build_order(std::vector<uint16_t>& out) const {
  out.clear();
  size_t n = warps_.size(), start = 0;
  for (size_t i = 0; i < n; ++i)
    if (warps_[i] == last_) start = i + 1;
  for (size_t i = 0; i < n; ++i) out.push_back(warps_[(start + i) % n]);
}

}  // namespace accelsim::sm
