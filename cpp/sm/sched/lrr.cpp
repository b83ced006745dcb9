// Loose round robin: start after the warp that issued last.
#include "sm/sched/warp_scheduler.h"

namespace accelsim::sm {
namespace {

class LrrScheduler : public WarpScheduler {
 protected:
  void build_order(std::vector<uint16_t>& out) const override {
    size_t n = warps_.size(), start = 0;
    for (size_t i = 0; i < n; ++i)
      if (warps_[i] == last_) start = i + 1;
    if (start == n) start = 0;
    // The list rotated to begin at `start`: two block copies, no division per warp.
    out.assign(warps_.begin() + ptrdiff_t(start), warps_.end());
    out.insert(out.end(), warps_.begin(), warps_.begin() + ptrdiff_t(start));
  }
};

const SchedulerRegistry::Registration kLrr({"lrr", "loose round robin: start after the warp that issued last",
                                            [](const SchedulerParams&) -> std::unique_ptr<WarpScheduler> {
                                              return std::make_unique<LrrScheduler>();
                                            }});

}  // namespace
}  // namespace accelsim::sm
