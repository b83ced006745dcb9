#include "dram/bank_timers.h"

#include <algorithm>

namespace accelsim::dram {

using TP = TimingParam;

namespace {
// Idle cycles the data bus needs to turn from reads to writes; the same two
// cycles the GDDR datasheet formula for tRTW (and GPGPU-Sim) uses.
constexpr int64_t kReadToWriteTurnaround = 2;
}  // namespace

BankTimers::BankTimers(const DramChannelConfig& cfg)
    : t_(cfg.timing),
      groups_(cfg.bank_groups),
      burst_cycles_(cfg.burst_cycles()),
      rcd_write_(std::max<int64_t>(0, cfg.timing[TP::tRCD] - (cfg.timing[TP::tWL] + 1))),
      read_to_write_(cfg.timing[TP::tCL] + cfg.burst_cycles() + kReadToWriteTurnaround -
                     cfg.timing[TP::tWL]),
      banks_(cfg.banks),
      group_next_col_(cfg.bank_groups, 0),
      group_next_pre_(cfg.bank_groups, 0) {}

int64_t BankTimers::earliest_refresh() const {
  int64_t t = 0;
  for (const Bank& b : banks_) t = std::max(t, b.next_act);
  return t;
}

void BankTimers::activate(uint32_t bank, int64_t row, int64_t now) {
  Bank& b = banks_[bank];
  b.open_row = row;
  ++open_banks_;
  b.next_read = now + t_[TP::tRCD];
  b.next_write = now + rcd_write_;
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

int64_t BankTimers::column(uint32_t bank, bool is_write, int64_t now) {
  Bank& b = banks_[bank];
  const uint32_t group = bank_group_of(bank, groups_);
  const int64_t data_end = now + (is_write ? t_[TP::tWL] : t_[TP::tCL]) + burst_cycles_;
  bus_free_ = data_end;
  group_next_col_[group] = now + t_[TP::tCCDL];
  next_col_any_ = now + t_[TP::tCCD];
  if (is_write) {
    b.next_pre = std::max(b.next_pre, data_end + t_[TP::tWR]);
    next_read_any_ = std::max(next_read_any_, data_end + t_[TP::tCDLR]);
  } else {
    b.next_pre = std::max(b.next_pre, now + burst_cycles_);
    group_next_pre_[group] = std::max(group_next_pre_[group], now + t_[TP::tRTPL]);
    next_write_any_ = std::max(next_write_any_, now + read_to_write_);
  }
  return data_end;
}

void BankTimers::refresh_bank(uint32_t bank, int64_t now) {
  banks_[bank].next_act = std::max(banks_[bank].next_act, now + t_[TP::tRFCpb]);
  held_ = -1;
}

void BankTimers::refresh(int64_t now) {
  const int64_t done = now + t_[TP::tRFC];
  for (Bank& b : banks_) b.next_act = std::max(b.next_act, done);
  next_act_any_ = std::max(next_act_any_, done);
}

}  // namespace accelsim::dram
