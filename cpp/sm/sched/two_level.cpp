// Two-level: round robin inside a small active set; a warp that waits on a
// long-latency result drops to the back of the list (the pending set).
#include <algorithm>

#include "sm/sched/warp_scheduler.h"

namespace accelsim::sm {
namespace {

class TwoLevelScheduler : public WarpScheduler {
 public:
  explicit TwoLevelScheduler(uint32_t active_size) : active_size_(active_size) {}

  void long_stall(uint16_t slot) override {
    size_t active = std::min<size_t>(active_size_, warps_.size());
    auto it = std::find(warps_.begin(), warps_.begin() + active, slot);
    if (it == warps_.begin() + active || warps_.size() <= active) return;
    warps_.erase(it);
    warps_.push_back(slot);
    dirty_ = true;
  }

 protected:
  void build_order(std::vector<uint16_t>& out) const override {
    size_t active = std::min<size_t>(active_size_, warps_.size()), start = 0;
    for (size_t i = 0; i < active; ++i)
      if (warps_[i] == last_) start = i + 1;
    if (start == active) start = 0;
    out.assign(warps_.begin() + ptrdiff_t(start), warps_.begin() + ptrdiff_t(active));
    out.insert(out.end(), warps_.begin(), warps_.begin() + ptrdiff_t(start));
  }

 private:
  uint32_t active_size_;
};

const SchedulerRegistry::Registration kTwoLevel(
    {"two_level", "round robin inside an active set; long-latency waiters drop to the back",
     [](const SchedulerParams& p) -> std::unique_ptr<WarpScheduler> {
       return std::make_unique<TwoLevelScheduler>(p.two_level_active);
     }});

}  // namespace
}  // namespace accelsim::sm
