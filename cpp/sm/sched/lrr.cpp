// Loose round robin: start after the warp that issued last.
#include "sm/sched/warp_scheduler.h"

namespace accelsim::sm {
namespace {

class LrrScheduler : public WarpScheduler {
 protected:
  void build_order(std::vector<uint16_t>& out) const override {
    out.clear();
    size_t n = warps_.size(), start = 0;
    for (size_t i = 0; i < n; ++i)
      if (warps_[i] == last_) start = i + 1;
    for (size_t i = 0; i < n; ++i) out.push_back(warps_[(start + i) % n]);
  }
};

const SchedulerRegistry::Registration kLrr({"lrr", "loose round robin: start after the warp that issued last",
                                            [](const SchedulerParams&) -> std::unique_ptr<WarpScheduler> {
                                              return std::make_unique<LrrScheduler>();
                                            }});

}  // namespace
}  // namespace accelsim::sm
