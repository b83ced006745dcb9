// The per-bank and per-channel state machines of one DRAM channel. Every rule
// is an "earliest cycle" stamp set when a command issues (no per-cycle
// countdowns), so a channel can skip idle cycles and the scheduler can ask
// "may this command issue now?" in O(1).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "dram/dram_config.h"

namespace accelsim::dram {

enum class DramCommand : uint8_t { activate, precharge, read, write, refresh };

inline constexpr int64_t kNoRow = -1;

class BankTimers {
 public:
  explicit BankTimers(const DramChannelConfig& cfg);

  int64_t open_row(uint32_t bank) const { return banks_[bank].open_row; }
  bool any_open() const { return open_banks_ > 0; }
  uint32_t bank_count() const { return static_cast<uint32_t>(banks_.size()); }

  // Earliest cycle at which the command could issue, ignoring the row state
  // (the caller knows which command the bank needs).
  int64_t earliest_activate(uint32_t bank) const;
  int64_t earliest_precharge(uint32_t bank) const;
  int64_t earliest_column(uint32_t bank, bool is_write) const;
  // A lower bound of earliest_column over all banks (the channel-wide rules).
  int64_t column_floor(bool is_write) const;
  int64_t earliest_refresh() const;  // all banks closed and precharged
  // Per-bank refresh: a held bank takes no activate and no column command
  // (its refresh is due, so its row closes as soon as tRAS / tWR allow); it
  // may refresh once closed and past its tRP / tRC.
  void hold(uint32_t bank) { held_ = int64_t(bank); }
  bool bank_refreshable(uint32_t bank, int64_t now) const {
    return banks_[bank].open_row == kNoRow && banks_[bank].next_act <= now;
  }

  void activate(uint32_t bank, int64_t row, int64_t now);
  void precharge(uint32_t bank, int64_t now);
  // One burst (a column command); returns the cycle its last beat leaves the bus.
  int64_t column(uint32_t bank, bool is_write, int64_t now);
  void refresh(int64_t now);
  void refresh_bank(uint32_t bank, int64_t now);  // releases the hold

 private:
  struct Bank {
    int64_t open_row = kNoRow;
    int64_t next_act = 0;  // tRC after ACT, tRP after PRE, tRFC after REF
    int64_t next_pre = 0;     // tRAS, read burst, tWL + burst + tWR
    int64_t next_read = 0;    // tRCD
    int64_t next_write = 0;   // tRCDWR
  };
  DramTiming t_;
  uint32_t groups_;
  int64_t burst_cycles_;
  int64_t rcd_write_;    // tRCDWR = tRCD - (tWL + 1), >= 0
  int64_t read_to_write_;  // tRTW = tCL + burst + 2 - tWL
  std::vector<Bank> banks_;
  std::vector<int64_t> group_next_col_;  // tCCDL inside a bank group
  std::vector<int64_t> group_next_pre_;  // tRTPL: read to precharge in the group
  int64_t next_act_any_ = 0;             // tRRD
  int64_t next_col_any_ = 0;             // tCCD across groups
  int64_t next_read_any_ = 0;            // tCDLR after write data (tWTR)
  int64_t next_write_any_ = 0;           // tRTW after a read
  int64_t bus_free_ = 0;                 // first cycle the data bus is free
  uint32_t open_banks_ = 0;
  int64_t held_ = -1;                    // bank whose per-bank refresh is due
};

// Inline: the schedulers call these for every queued request each cycle.
inline int64_t BankTimers::earliest_activate(uint32_t bank) const {
  if (int64_t(bank) == held_) return INT64_MAX;  // waits for its refresh
  return std::max(banks_[bank].next_act, next_act_any_);
}

inline int64_t BankTimers::earliest_precharge(uint32_t bank) const {
  return std::max(banks_[bank].next_pre, group_next_pre_[bank_group_of(bank, groups_)]);
}

inline int64_t BankTimers::earliest_column(uint32_t bank, bool is_write) const {
  if (int64_t(bank) == held_) return INT64_MAX;
  const Bank& b = banks_[bank];
  const int64_t own = is_write ? std::max(b.next_write, next_write_any_)
                               : std::max(b.next_read, next_read_any_);
  const int64_t t = std::max({own, group_next_col_[bank_group_of(bank, groups_)], next_col_any_});
  // One data bus: this command's data may not overlap the previous command's.
  const int64_t latency = is_write ? t_[TimingParam::tWL] : t_[TimingParam::tCL];
  return std::max(t, bus_free_ - latency);
}

inline int64_t BankTimers::column_floor(bool is_write) const {
  const int64_t latency = is_write ? t_[TimingParam::tWL] : t_[TimingParam::tCL];
  return std::max({is_write ? next_write_any_ : next_read_any_, next_col_any_, bus_free_ - latency});
}

}  // namespace accelsim::dram
