// One DRAM channel (memory partition's controller + devices): read and write
// queues (or one shared queue), a named command scheduler, per-bank timing
// state, a data bus and a bounded return queue. Built from a
// DramChannelConfig; owns all its storage (nothing allocated per request).
//
// Clocking: a Clocked component on the DRAM command clock; tick(now) may skip
// cycles (next_tick() says which one matters next) because every timing rule
// is an earliest-cycle stamp. Inside, the stamps are signed (int64_t): bank
// timers start "infinitely" in the past, so earliest-next formulas stay
// plain subtractions; the Clocked seam takes the one time type, Cycle.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "dram/bank_queue.h"
#include "dram/bank_timers.h"
#include "dram/dram_counters.h"
#include "dram/dram_request.h"
#include "dram/dram_scheduler.h"
#include "base/clocked.h"
#include "base/ring_buffer.h"
#include "stats/mem_stat_slots.h"

namespace accelsim::dram {

inline constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

struct CommandRecord {
  int64_t cycle;
  DramCommand command;
  uint32_t bank;
};

class DramChannel final : public Clocked {
 public:
  DramChannel(const DramChannelConfig& cfg, std::string name);

  bool can_accept(bool is_write) const;
  // Queues the request; false (counted as a queue-full stall) when full.
  bool push(const DramRequest& req);
  void tick(Cycle now) override;
  Cycle next_tick(Cycle now) const override {
    const int64_t e = next_event_cycle();
    return e == dram::kNever ? Clocked::kNever : std::max(Cycle(e), now);
  }
  // Name, queue occupancy, drain / refresh state.
  std::string describe() const override;
  // Pops the oldest finished read (or acked write) whose data is off the bus
  // by `now`.
  bool pop_completed(int64_t now, DramCompletion& out);
  // Earliest cycle after the last tick at which tick() could issue a command,
  // or at which the oldest completion becomes poppable; kNever when idle.
  int64_t next_event_cycle() const;
  bool idle() const { return reads_.empty() && writes_.empty() && returns_.empty(); }

  const DramCounters& counters() const { return counters_; }
  uint64_t counter(DramCounter c) const { return counters_[static_cast<size_t>(c)]; }
  size_t read_queue_size() const { return reads_.size(); }
  size_t write_queue_size() const { return writes_.size(); }
  bool draining() const { return draining_; }
  const std::string& name() const { return name_; }
  const BankTimers& banks() const { return timers_; }

  // Per-stream counts from now on into `ops` laid out [stream][stats::DramOp]:
  // READ / WRITE in 32 B sectors moved, ACTIVATE / ROW_HIT per request;
  // nullptr = off. A request's stream slot indexes it.
  void count_streams_into(uint64_t* ops) { stream_ops_ = ops; }
  // Tests and tracing: every issued command is appended (nullptr = off).
  void set_command_log(std::vector<CommandRecord>* log) { log_ = log; }

 private:
  bool separate_writes() const { return cfg_.write_queue > 0; }
  void update_drain_mode();
  BankQueue& active_queue();
  void step_refresh(int64_t now);
  bool step_bank_refresh(int64_t now);
  int64_t refresh_interval() const;
  bool issue_commands(int64_t now, bool row_bus_free);
  int64_t next_command_cycle();
  bool issue_column(BankQueue& q, int64_t now);
  bool issue_row(BankQueue& q, int64_t now);
  void open_row(uint32_t bank, int64_t row, int64_t now);
  void close_row(uint32_t bank, int64_t now);
  int64_t bank_event(const BankQueue& q, uint32_t bank) const;
  int64_t entry_event(const QueueEntry& e) const;
  void record(DramCommand cmd, uint32_t bank, int64_t now);
  void bump(DramCounter c, uint64_t n = 1) { counters_[static_cast<size_t>(c)] += n; }

  DramChannelConfig cfg_;
  std::string name_;
  std::unique_ptr<DramScheduler> scheduler_;
  BankTimers timers_;
  BankQueue reads_;   // also the shared queue when write_queue == 0
  BankQueue writes_;  // used only with a separate write queue
  RingBuffer<DramCompletion> returns_;
  DramCounters counters_{};
  bool draining_ = false;
  bool refresh_pending_ = false;
  int64_t refresh_due_ = dram::kNever;  // (Clocked::kNever is unsigned)
  uint32_t refresh_bank_ = 0;           // per-bank refresh: the next bank
  int64_t now_ = -1;
  int64_t wake_ = 0;  // no command can issue before this cycle
  std::vector<CommandRecord>* log_ = nullptr;
  uint64_t* stream_ops_ = nullptr;
  void count_stream(const DramRequest& r, stats::DramOp op, uint64_t n = 1) {
    if (stream_ops_) stream_ops_[size_t(r.stream) * stats::kDramOps + size_t(op)] += n;
  }
};

}  // namespace accelsim::dram
