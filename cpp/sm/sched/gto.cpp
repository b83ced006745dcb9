// Greedy-then-oldest: keep issuing from the last warp, else the oldest ready.
#include "sm/sched/warp_scheduler.h"

namespace accelsim::sm {
namespace {

class GtoScheduler : public WarpScheduler {
 protected:
  void build_order(std::vector<uint16_t>& out) const override {
    out.clear();
    bool have_last = false;
    for (uint16_t w : warps_) have_last |= (w == last_);
    if (have_last) out.push_back(last_);
    for (uint16_t w : warps_)
      if (!have_last || w != last_) out.push_back(w);
  }
};

const SchedulerRegistry::Registration kGto({"gto", "greedy-then-oldest: the last warp again, else the oldest",
                                            [](const SchedulerParams&) -> std::unique_ptr<WarpScheduler> {
                                              return std::make_unique<GtoScheduler>();
                                            }});

}  // namespace
}  // namespace accelsim::sm
