#include "dram/dram_scheduler.h"

#include <array>
#include <bitset>

#include "base/error.h"

namespace accelsim::dram {

RowNeed row_need(const QueueEntry& e, const BankTimers& banks) {
  const int64_t open = banks.open_row(e.req.bank);
  if (open == e.req.row) return RowNeed::none;
  return open == kNoRow ? RowNeed::activate : RowNeed::precharge;
}

bool column_ready(const QueueEntry& e, const SchedulerView& v) {
  if (v.banks.open_row(e.req.bank) != e.req.row) return false;
  // The last burst of a read (or acked write) needs a return-queue slot.
  const bool needs_slot = (!e.req.is_write || e.req.ack_write) && e.bursts_left <= 1;
  if (needs_slot && !v.return_space) return false;
  return v.banks.earliest_column(e.req.bank, e.req.is_write) <= v.now;
}

bool row_ready(const QueueEntry& e, RowNeed need, const SchedulerView& v) {
  if (need == RowNeed::activate) return v.banks.earliest_activate(e.req.bank) <= v.now;
  if (need == RowNeed::precharge) return v.banks.earliest_precharge(e.req.bank) <= v.now;
  return false;
}

namespace {

// Strict arrival order: only the oldest request is served, so one row miss
// holds up everything behind it (GPGPU-Sim's FCFS).
class Fcfs final : public DramScheduler {
 public:
  int pick_column(const SchedulerView& v) const override {
    return !v.queue.empty() && column_ready(v.queue[0], v) ? 0 : -1;
  }
  int pick_row(const SchedulerView& v) const override {
    if (v.queue.empty()) return -1;
    return row_ready(v.queue[0], row_need(v.queue[0], v.banks), v) ? 0 : -1;
  }
};

// First-ready FCFS: the oldest request that hits an open row goes first; row
// commands go to the oldest request of each bank, but a row that still has
// queued hits is not closed.
class FrFcfs final : public DramScheduler {
 public:
  int pick_column(const SchedulerView& v) const override {
    for (size_t i = 0; i < v.queue.size(); ++i)
      if (column_ready(v.queue[i], v)) return static_cast<int>(i);
    return -1;
  }
  int pick_row(const SchedulerView& v) const override {
    std::bitset<256> has_hits, seen;
    for (const QueueEntry& e : v.queue)
      if (v.banks.open_row(e.req.bank) == e.req.row) has_hits.set(e.req.bank);
    for (size_t i = 0; i < v.queue.size(); ++i) {
      const uint32_t bank = v.queue[i].req.bank;
      if (seen.test(bank) || has_hits.test(bank)) continue;
      seen.set(bank);
      if (row_ready(v.queue[i], row_need(v.queue[i], v.banks), v)) return static_cast<int>(i);
    }
    return -1;
  }
};

using Factory = std::unique_ptr<DramScheduler> (*)();
struct Entry {
  const char* name;
  Factory make;
};
constexpr std::array<Entry, 2> kRegistry = {{
    {"fcfs", [] { return std::unique_ptr<DramScheduler>(new Fcfs()); }},
    {"frfcfs", [] { return std::unique_ptr<DramScheduler>(new FrFcfs()); }},
}};
constexpr std::array<const char*, 2> kNames = {"fcfs", "frfcfs"};

}  // namespace

std::span<const char* const> dram_scheduler_names() { return kNames; }

std::unique_ptr<DramScheduler> make_dram_scheduler(const std::string& name) {
  for (const Entry& e : kRegistry)
    if (name == e.name) return e.make();
  std::string known;
  for (const Entry& e : kRegistry) known += std::string(known.empty() ? "" : ", ") + e.name;
  throw ConfigError("dram_scheduler", "unknown scheduler '" + name + "'; known: " + known);
}

}  // namespace accelsim::dram
