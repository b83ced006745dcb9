#include "dram/dram_scheduler.h"

#include <array>

#include "base/error.h"

namespace accelsim::dram {

constexpr int32_t kNil = BankQueue::kNil;

RowNeed row_need(const QueueEntry& e, const BankTimers& banks) {
  const int64_t open = banks.open_row(e.req.bank);
  if (open == e.req.row) return RowNeed::none;
  return open == kNoRow ? RowNeed::activate : RowNeed::precharge;
}

// The last burst of a read (or acked write) needs a return-queue slot.
static bool needs_return_slot(const QueueEntry& e) {
  return (!e.req.is_write || e.req.ack_write) && e.bursts_left <= 1;
}

bool column_ready(const QueueEntry& e, const SchedulerView& v) {
  if (v.banks.open_row(e.req.bank) != e.req.row) return false;
  if (needs_return_slot(e) && !v.return_space) return false;
  return v.banks.earliest_column(e.req.bank, e.req.is_write) <= v.now;
}

bool row_ready(const QueueEntry& e, RowNeed need, const SchedulerView& v) {
  if (need == RowNeed::activate) return v.banks.earliest_activate(e.req.bank) <= v.now;
  if (need == RowNeed::precharge) return v.banks.earliest_precharge(e.req.bank) <= v.now;
  return false;
}

namespace {

// Keeps the older of two candidate slots.
int32_t older(const BankQueue& q, int32_t best, int32_t s) {
  return best == kNil || q.age(s) < q.age(best) ? s : best;
}

// Strict arrival order: only the oldest request is served, so one row miss
// holds up everything behind it (GPGPU-Sim's FCFS).
class Fcfs final : public DramScheduler {
 public:
  int32_t pick_column(const SchedulerView& v) const override {
    const int32_t s = oldest(v.queue);
    return s != kNil && column_ready(v.queue.entry(s), v) ? s : kNil;
  }
  int32_t pick_row(const SchedulerView& v) const override {
    const int32_t s = oldest(v.queue);
    if (s == kNil) return kNil;
    const QueueEntry& e = v.queue.entry(s);
    return row_ready(e, row_need(e, v.banks), v) ? s : kNil;
  }

 private:
  static int32_t oldest(const BankQueue& q) {
    int32_t best = kNil;
    q.queued_banks().for_each([&](uint32_t b) { best = older(q, best, q.head(b)); });
    return best;
  }
};

// First-ready FCFS: the oldest request that hits an open row and may issue
// now goes first; row commands go to the oldest request of each bank, but a
// row that still has queued hits is not closed.
class FrFcfs final : public DramScheduler {
 public:
  // column_ready, with the bank's timing answers computed once per bank
  // rather than once per queued hit, and only for the kinds of request the
  // queue holds: a bank whose column timing is not met (the usual case under
  // load) costs no walk of its list, and when the channel-wide rules (data
  // bus, tCCD, turnarounds) hold every bank back, no bank is looked at.
  int32_t pick_column(const SchedulerView& v) const override {
    const bool reads = v.queue.size() > v.queue.writes() && v.banks.column_floor(false) <= v.now;
    const bool writes = v.queue.writes() > 0 && v.banks.column_floor(true) <= v.now;
    if (!reads && !writes) return kNil;
    int32_t best = kNil;
    v.queue.banks_with_hits().for_each([&](uint32_t b) {
      const bool read_ok = reads && v.banks.earliest_column(b, false) <= v.now;
      const bool write_ok = writes && v.banks.earliest_column(b, true) <= v.now;
      if (!read_ok && !write_ok) return;
      const int64_t row = v.banks.open_row(b);
      for (int32_t s = v.queue.head(b); s != kNil; s = v.queue.next(s)) {
        const QueueEntry& e = v.queue.entry(s);
        if (e.req.row != row || !(e.req.is_write ? write_ok : read_ok)) continue;
        if (needs_return_slot(e) && !v.return_space) continue;
        best = older(v.queue, best, s);
        break;  // later entries of this bank are younger
      }
    });
    return best;
  }
  int32_t pick_row(const SchedulerView& v) const override {
    int32_t best = kNil;
    v.queue.queued_banks().for_each([&](uint32_t b) {
      if (v.queue.hits(b) > 0) return;
      const int32_t s = v.queue.head(b);
      const QueueEntry& e = v.queue.entry(s);
      if (row_ready(e, row_need(e, v.banks), v)) best = older(v.queue, best, s);
    });
    return best;
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
