// The built-in warp scheduling policies (one .cpp each).
#pragma once
#include "sm/sched/warp_scheduler.h"

namespace accelsim::sm {

class LrrScheduler : public WarpScheduler {
 public:
  void order(std::vector<uint16_t>& out) override;
  void issued(uint16_t slot) override { last_ = slot; }

 private:
  uint16_t last_ = UINT16_MAX;
};

class GtoScheduler : public WarpScheduler {
 public:
  void order(std::vector<uint16_t>& out) override;
  void issued(uint16_t slot) override { last_ = slot; }

 private:
  uint16_t last_ = UINT16_MAX;
};

class TwoLevelScheduler : public WarpScheduler {
 public:
  explicit TwoLevelScheduler(uint32_t active_size) : active_size_(active_size) {}
  void order(std::vector<uint16_t>& out) override;
  void issued(uint16_t slot) override { last_ = slot; }
  void long_stall(uint16_t slot) override;

 private:
  uint32_t active_size_;
  uint16_t last_ = UINT16_MAX;
};

}  // namespace accelsim::sm
