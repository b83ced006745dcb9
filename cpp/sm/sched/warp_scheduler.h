// Warp scheduling policy: orders the warps one scheduler owns, once per cycle.
// Policies are chosen by name (`scheduler` in the config); each registers
// itself from its own .cpp (sched/gto.cpp, ...): a new policy is one file.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/named_registry.h"

namespace accelsim::sm {

class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;
  // Warps are added in launch order (oldest first).
  void add_warp(uint16_t slot) {
    warps_.push_back(slot);
    dirty_ = true;
  }
  void remove_warp(uint16_t slot);
  bool empty() const { return warps_.empty(); }
  // The owned warps in this cycle's priority order; rebuilt only when the
  // policy's state changed since the last call.
  const std::vector<uint16_t>& order() {
    if (dirty_) {
      build_order(order_);
      dirty_ = false;
    }
    return order_;
  }
  // Feedback: `slot` issued this cycle.
  void issued(uint16_t slot) {
    if (slot != last_) dirty_ = true;
    last_ = slot;
  }
  // Feedback: `slot` waits on a long-latency result (two-level demotes it).
  virtual void long_stall(uint16_t) {}

 protected:
  virtual void build_order(std::vector<uint16_t>& out) const = 0;
  std::vector<uint16_t> warps_;  // oldest first
  uint16_t last_ = UINT16_MAX;   // the warp that issued last
  bool dirty_ = true;

 private:
  std::vector<uint16_t> order_;
};

struct SchedulerParams {
  uint32_t two_level_active = 8;
};

// One registered policy: its config name, what it does, how to build one.
struct SchedulerPolicy {
  const char* name;
  const char* description;
  std::unique_ptr<WarpScheduler> (*make)(const SchedulerParams& params);
};
using SchedulerRegistry = SelfRegistry<SchedulerPolicy>;

// Every registered policy, by name.
inline std::span<const SchedulerPolicy> scheduler_policies() { return SchedulerRegistry::entries(); }
// Unknown names throw ConfigError listing the registered ones.
std::unique_ptr<WarpScheduler> make_scheduler(const std::string& name,
                                              const SchedulerParams& params);

}  // namespace accelsim::sm
