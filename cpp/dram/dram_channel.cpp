#include "dram/dram_channel.h"

#include <algorithm>

#include "base/error.h"

namespace accelsim::dram {

DramChannel::DramChannel(const DramChannelConfig& cfg, std::string name)
    : cfg_(cfg),
      name_(std::move(name)),
      scheduler_(make_dram_scheduler(cfg.scheduler)),
      timers_((cfg.validate(), cfg)),
      returns_(cfg.return_queue) {
  reads_.reserve(cfg.read_queue);
  writes_.reserve(cfg.write_queue);
  const int64_t refi = cfg.timing[TimingParam::tREFI];
  if (refi > 0) refresh_due_ = refi;
}

bool DramChannel::can_accept(bool is_write) const {
  if (is_write && separate_writes()) return writes_.size() < cfg_.write_queue;
  return reads_.size() < cfg_.read_queue;
}

bool DramChannel::push(const DramRequest& req) {
  if (req.bank >= cfg_.banks) throw Error(name_ + ": DRAM request to bank " + std::to_string(req.bank));
  if (!can_accept(req.is_write)) {
    bump(DramCounter::queue_full_stalls);
    return false;
  }
  auto& q = req.is_write && separate_writes() ? writes_ : reads_;
  const uint32_t bursts = (req.size_bytes + cfg_.burst_bytes() - 1) / cfg_.burst_bytes();
  q.push_back(QueueEntry{req, bursts == 0 ? 1 : bursts, false});  // capacity reserved: no allocation
  return true;
}

void DramChannel::tick(int64_t now) {
  now_ = now;
  if (refresh_due_ <= now) refresh_pending_ = true;
  if (refresh_pending_) {
    step_refresh(now);
    return;
  }
  update_drain_mode();
  std::vector<QueueEntry>& q = active_queue();
  if (q.empty()) return;
  const bool column_issued = issue_column(q, now);
  // A single command bus carries one command per cycle; HBM's separate row
  // and column buses carry one of each.
  if (!column_issued || cfg_.dual_bus) issue_row(q, now);
  update_drain_mode();  // so draining() reports the state after this cycle
}

void DramChannel::update_drain_mode() {
  if (!separate_writes()) return;
  if (!draining_ && writes_.size() >= cfg_.drain_high) {
    draining_ = true;
    bump(DramCounter::write_drains);
  } else if (draining_ && writes_.size() <= cfg_.drain_low) {
    draining_ = false;
  }
}

// Reads have priority until the write queue reaches the high watermark; with
// no reads waiting, writes go out opportunistically.
std::vector<QueueEntry>& DramChannel::active_queue() {
  if (!separate_writes()) return reads_;
  if (draining_ || reads_.empty()) return writes_;
  return reads_;
}

// Refresh: stop new activates, precharge every open bank, then REF once all
// banks have met tRP; the banks stay closed for tRFC.
void DramChannel::step_refresh(int64_t now) {
  if (timers_.any_open()) {
    for (uint32_t b = 0; b < timers_.bank_count(); ++b)
      if (timers_.open_row(b) != kNoRow && timers_.earliest_precharge(b) <= now) {
        timers_.precharge(b, now);
        bump(DramCounter::precharges);
        record(DramCommand::precharge, b, now);
        return;
      }
    return;
  }
  if (timers_.earliest_refresh() > now) return;
  timers_.refresh(now);
  bump(DramCounter::refreshes);
  record(DramCommand::refresh, 0, now);
  refresh_pending_ = false;
  refresh_due_ += cfg_.timing[TimingParam::tREFI];
}

// One column command moves one burst; a request larger than a burst stays
// queued (and, being the oldest hit, normally goes again next) until its
// last burst, which completes it.
bool DramChannel::issue_column(std::vector<QueueEntry>& q, int64_t now) {
  const SchedulerView view{q, timers_, now, !returns_.full()};
  const int i = scheduler_->pick_column(view);
  if (i < 0) return false;
  QueueEntry& e = q[static_cast<size_t>(i)];
  const int64_t data_end = timers_.column(e.req.bank, e.req.is_write, now);
  bump(DramCounter::busy_cycles, cfg_.burst_cycles());
  record(e.req.is_write ? DramCommand::write : DramCommand::read, e.req.bank, now);
  if (--e.bursts_left > 0) return true;
  bump(e.req.is_write ? DramCounter::writes : DramCounter::reads);
  bump(e.activated ? DramCounter::row_misses : DramCounter::row_hits);
  // Data ends are monotone (one data bus), so the return FIFO stays ordered.
  if (!e.req.is_write || e.req.ack_write) returns_.push({e.req.tag, e.req.is_write, data_end});
  q.erase(q.begin() + i);
  return true;
}

bool DramChannel::issue_row(std::vector<QueueEntry>& q, int64_t now) {
  const SchedulerView view{q, timers_, now, !returns_.full()};
  const int i = scheduler_->pick_row(view);
  if (i < 0) return false;
  QueueEntry& e = q[static_cast<size_t>(i)];
  if (row_need(e, timers_) == RowNeed::precharge) {
    timers_.precharge(e.req.bank, now);
    bump(DramCounter::precharges);
    record(DramCommand::precharge, e.req.bank, now);
  } else {
    timers_.activate(e.req.bank, e.req.row, now);
    e.activated = true;
    bump(DramCounter::activates);
    record(DramCommand::activate, e.req.bank, now);
  }
  return true;
}

bool DramChannel::pop_completed(int64_t now, DramCompletion& out) {
  if (returns_.empty() || returns_.front().cycle > now) return false;
  out = returns_.front();
  returns_.pop();
  return true;
}

int64_t DramChannel::entry_event(const QueueEntry& e) const {
  switch (row_need(e, timers_)) {
    case RowNeed::none: return timers_.earliest_column(e.req.bank, e.req.is_write);
    case RowNeed::precharge: return timers_.earliest_precharge(e.req.bank);
    case RowNeed::activate: return timers_.earliest_activate(e.req.bank);
  }
  return now_ + 1;
}

// A lower bound is enough: ticking at it is harmless if nothing can go yet.
int64_t DramChannel::next_event_cycle() const {
  int64_t t = refresh_pending_ ? now_ + 1 : refresh_due_;
  for (const QueueEntry& e : reads_) t = std::min(t, entry_event(e));
  for (const QueueEntry& e : writes_) t = std::min(t, entry_event(e));
  if (t != kNever) t = std::max(t, now_ + 1);
  if (!returns_.empty()) t = std::min(t, returns_.front().cycle);
  return t;
}

void DramChannel::record(DramCommand cmd, uint32_t bank, int64_t now) {
  if (log_ != nullptr) log_->push_back({now, cmd, bank});
}

}  // namespace accelsim::dram
