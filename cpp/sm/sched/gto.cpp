// Greedy-then-oldest: keep issuing from the last warp, else the oldest ready.
#include "sm/sched/policies.h"

namespace accelsim::sm {

void GtoScheduler::build_order(std::vector<uint16_t>& out) const {
  out.clear();
  bool have_last = false;
  for (uint16_t w : warps_) have_last |= (w == last_);
  if (have_last) out.push_back(last_);
  for (uint16_t w : warps_)
    if (!have_last || w != last_) out.push_back(w);
}

}  // namespace accelsim::sm
