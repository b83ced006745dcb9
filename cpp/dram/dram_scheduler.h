// DRAM command schedulers, chosen by name (dram_scheduler). A scheduler only
// decides *which* queued request gets the next column command and which one
// the next row command (PRE or ACT); the channel owns the timing rules and
// asks BankTimers whether a command may issue.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "dram/bank_queue.h"
#include "dram/bank_timers.h"

namespace accelsim::dram {

struct SchedulerView {
  const BankQueue& queue;  // the queue being served this cycle
  const BankTimers& banks;
  int64_t now;
  bool return_space;  // a read (or acked write) may take a return-queue slot
};

// The row command an entry needs next, given its bank's state.
enum class RowNeed : uint8_t { none, precharge, activate };
RowNeed row_need(const QueueEntry& e, const BankTimers& banks);
bool column_ready(const QueueEntry& e, const SchedulerView& v);
bool row_ready(const QueueEntry& e, RowNeed need, const SchedulerView& v);

class DramScheduler {
 public:
  virtual ~DramScheduler() = default;
  // Queue slot to issue a read/write for now, or BankQueue::kNil.
  virtual int32_t pick_column(const SchedulerView& v) const = 0;
  // Queue slot whose bank gets its row command (row_need) now, or kNil.
  virtual int32_t pick_row(const SchedulerView& v) const = 0;
};

std::span<const char* const> dram_scheduler_names();
// Throws ConfigError("dram_scheduler", ...) listing the known names.
std::unique_ptr<DramScheduler> make_dram_scheduler(const std::string& name);

}  // namespace accelsim::dram
