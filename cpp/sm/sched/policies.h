// The built-in warp scheduling policies (one .cpp each).
#pragma once
#include "sm/sched/warp_scheduler.h"

namespace accelsim::sm {

class LrrScheduler : public WarpScheduler {
 protected:
  void build_order(std::vector<uint16_t>& out) const override;
};

class GtoScheduler : public WarpScheduler {
 protected:
  void build_order(std::vector<uint16_t>& out) const override;
};

class TwoLevelScheduler : public WarpScheduler {
 public:
  explicit TwoLevelScheduler(uint32_t active_size) : active_size_(active_size) {}
  void long_stall(uint16_t slot) override;

 protected:
  void build_order(std::vector<uint16_t>& out) const override;

 private:
  uint32_t active_size_;
};

}  // namespace accelsim::sm
