#include "dram/bank_timers.h"

#include <algorithm>

namespace accelsim::dram {

using TP = TimingParam;

BankTimers::BankTimers(const DramChannelConfig& cfg)
    : t_(cfg.timing),
      groups_(cfg.bank_groups),
      burst_cycles_(cfg.burst_cycles()),
      banks_(cfg.banks),
      group_next_col_(cfg.bank_groups, 0) {}

int64_t BankTimers::earliest_activate(uint32_t bank) const {
  return std::max(banks_[bank].next_act, next_act_any_);
}

int64_t BankTimers::earliest_column(uint32_t bank, bool is_write) const {
  const Bank& b = banks_[bank];
  int64_t t = std::max({b.next_col, group_next_col_[bank_group_of(bank, groups_)], next_col_any_});
  // Data of one command may not overlap the previous command's data on the
  // shared bus; a read must also wait tCDLR after the last write data.
  const int64_t latency = is_write ? t_[TP::tWL] : t_[TP::tCL];
  t = std::max(t, bus_free_ - latency);
  if (!is_write) t = std::max(t, next_read_any_);
  return t;
}

int64_t BankTimers::earliest_refresh() const {
  int64_t t = 0;
  for (const Bank& b : banks_) t = std::max(t, b.next_act);
  return t;
}

void BankTimers::activate(uint32_t bank, int64_t row, int64_t now) {
  Bank& b = banks_[bank];
  b.open_row = row;
  ++open_banks_;
  b.next_col = now + t_[TP::tRCD];
  b.next_pre = std::max(b.next_pre, now + t_[TP::tRAS]);
  b.next_act = now + t_[TP::tRC];
  next_act_any_ = now + t_[TP::tRRD];
}

void BankTimers::precharge(uint32_t bank, int64_t now) {
  Bank& b = banks_[bank];
  b.open_row = kNoRow;
  --open_banks_;
  b.next_act = std::max(b.next_act, now + t_[TP::tRP]);
}

int64_t BankTimers::column(uint32_t bank, bool is_write, uint32_t bursts, int64_t now) {
  Bank& b = banks_[bank];
  const int64_t data_start = now + (is_write ? t_[TP::tWL] : t_[TP::tCL]);
  const int64_t data_end = data_start + int64_t{burst_cycles_} * bursts;
  bus_free_ = data_end;
  group_next_col_[bank_group_of(bank, groups_)] = now + t_[TP::tCCDL];
  next_col_any_ = now + t_[TP::tCCD];
  if (is_write) {
    b.next_pre = std::max(b.next_pre, data_end + t_[TP::tWR]);
    next_read_any_ = std::max(next_read_any_, data_end + t_[TP::tCDLR]);
  } else {
    b.next_pre = std::max(b.next_pre, now + t_[TP::tRTPL]);
  }
  return data_end;
}

void BankTimers::refresh(int64_t now) {
  const int64_t done = now + t_[TP::tRFC];
  for (Bank& b : banks_) b.next_act = std::max(b.next_act, done);
  next_act_any_ = std::max(next_act_any_, done);
}

}  // namespace accelsim::dram
