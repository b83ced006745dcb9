#include "dram/dram_channel.h"

#include <algorithm>

#include "base/error.h"

namespace accelsim::dram {

constexpr int32_t kNil = BankQueue::kNil;

DramChannel::DramChannel(const DramChannelConfig& cfg, std::string name)
    : cfg_(cfg),
      name_(std::move(name)),
      scheduler_(make_dram_scheduler(cfg.scheduler)),
      timers_((cfg.validate(), cfg)),
      reads_(cfg.read_queue, cfg.banks),
      writes_(cfg.write_queue, cfg.banks),
      returns_(cfg.return_queue) {
  const int64_t refi = cfg.timing[TimingParam::tREFI];
  if (refi > 0) refresh_due_ = refresh_interval();
}

// Per-bank refresh visits every bank once per tREFI.
int64_t DramChannel::refresh_interval() const {
  const int64_t refi = cfg_.timing[TimingParam::tREFI];
  return cfg_.refresh_per_bank ? std::max<int64_t>(1, refi / int64_t(cfg_.banks)) : refi;
}

bool DramChannel::can_accept(bool is_write) const {
  return is_write && separate_writes() ? !writes_.full() : !reads_.full();
}

bool DramChannel::push(const DramRequest& req) {
  if (req.bank >= cfg_.banks) throw Error(name_ + ": DRAM request to bank " + std::to_string(req.bank));
  if (!can_accept(req.is_write)) {
    bump(DramCounter::queue_full_stalls);
    return false;
  }
  BankQueue& q = req.is_write && separate_writes() ? writes_ : reads_;
  const uint32_t bursts = (req.size_bytes + cfg_.burst_bytes() - 1) / cfg_.burst_bytes();
  const QueueEntry e{req, bursts == 0 ? 1 : bursts, false};
  q.push(e, timers_.open_row(req.bank));
  // The new request may be servable before the current wake-up; a write that
  // starts a drain switches queues, so then look again at once.
  const bool starts_drain = &q == &writes_ && !draining_ && writes_.size() >= cfg_.drain_high;
  wake_ = starts_drain ? 0 : std::min(wake_, entry_event(e));
  return true;
}

// Work is gated: a tick before wake_ returns at once. After a tick that issued
// nothing, wake_ is the first cycle any served request's next command could
// issue; push() and a pop that frees a full return queue pull it earlier.
void DramChannel::tick(Cycle cycle) {
  const int64_t now = int64_t(cycle.count());
  now_ = now;
  if (now < wake_) return;
  if (refresh_due_ <= now && !refresh_pending_) {
    refresh_pending_ = true;
    if (cfg_.refresh_per_bank) timers_.hold(refresh_bank_);
  }
  if (refresh_pending_ && !cfg_.refresh_per_bank) {
    step_refresh(now);
    wake_ = now + 1;
    return;
  }
  // A per-bank refresh takes the row bus this cycle when it issues; the other
  // banks keep serving (on a single command bus, from the next cycle).
  const bool refreshed = refresh_pending_ && step_bank_refresh(now);
  const bool issued = !(refreshed && !cfg_.dual_bus) && issue_commands(now, !refreshed);
  // A channel that just issued will likely issue again soon: only a stalled
  // one pays for the scan that finds how long it may sleep.
  wake_ = issued || refreshed ? now + 1 : next_command_cycle();
}

bool DramChannel::issue_commands(int64_t now, bool row_bus_free) {
  update_drain_mode();
  BankQueue& q = active_queue();
  if (q.empty()) return false;
  const bool column_issued = issue_column(q, now);
  // A single command bus carries one command per cycle; HBM's separate row
  // and column buses carry one of each.
  bool row_issued = false;
  if (row_bus_free && (!column_issued || cfg_.dual_bus)) row_issued = issue_row(q, now);
  update_drain_mode();  // so draining() reports the state after this cycle
  return column_issued || row_issued;
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
BankQueue& DramChannel::active_queue() {
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
        close_row(b, now);
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

// Per-bank refresh of the held bank: precharge it once its open row may
// close, then REF once tRP has passed; true when a command went out.
bool DramChannel::step_bank_refresh(int64_t now) {
  const uint32_t b = refresh_bank_;
  if (timers_.open_row(b) != kNoRow) {
    if (timers_.earliest_precharge(b) > now) return false;
    close_row(b, now);
    return true;
  }
  if (!timers_.bank_refreshable(b, now)) return false;
  timers_.refresh_bank(b, now);
  bump(DramCounter::refreshes);
  record(DramCommand::refresh, b, now);
  refresh_pending_ = false;
  refresh_due_ += refresh_interval();
  refresh_bank_ = (b + 1) % cfg_.banks;
  return true;
}

// One column command moves one burst; a request larger than a burst stays
// queued (and, being the oldest hit, normally goes again next) until its
// last burst, which completes it.
bool DramChannel::issue_column(BankQueue& q, int64_t now) {
  const int32_t slot = scheduler_->pick_column({q, timers_, now, !returns_.full()});
  if (slot == kNil) return false;
  QueueEntry& e = q.entry(slot);
  const int64_t data_end = timers_.column(e.req.bank, e.req.is_write, now);
  bump(DramCounter::busy_cycles, cfg_.burst_cycles());
  record(e.req.is_write ? DramCommand::write : DramCommand::read, e.req.bank, now);
  if (--e.bursts_left > 0) return true;
  bump(e.req.is_write ? DramCounter::writes : DramCounter::reads);
  bump(e.activated ? DramCounter::row_misses : DramCounter::row_hits);
  count_stream(e.req, e.req.is_write ? stats::DramOp::WRITE : stats::DramOp::READ,
               (e.req.size_bytes + 31) / 32);
  if (!e.activated) count_stream(e.req, stats::DramOp::ROW_HIT);
  // Data ends are monotone (one data bus), so the return FIFO stays ordered.
  if (!e.req.is_write || e.req.ack_write) returns_.push({e.req.tag, e.req.is_write, data_end});
  q.remove(slot, timers_.open_row(e.req.bank));
  return true;
}

bool DramChannel::issue_row(BankQueue& q, int64_t now) {
  const int32_t slot = scheduler_->pick_row({q, timers_, now, !returns_.full()});
  if (slot == kNil) return false;
  QueueEntry& e = q.entry(slot);
  if (row_need(e, timers_) == RowNeed::precharge) {
    close_row(e.req.bank, now);
  } else {
    open_row(e.req.bank, e.req.row, now);
    e.activated = true;
    count_stream(e.req, stats::DramOp::ACTIVATE);
  }
  return true;
}

// Row changes go through here so both queues keep their hit counts right.
void DramChannel::open_row(uint32_t bank, int64_t row, int64_t now) {
  timers_.activate(bank, row, now);
  reads_.row_opened(bank, row);
  writes_.row_opened(bank, row);
  bump(DramCounter::activates);
  record(DramCommand::activate, bank, now);
}

void DramChannel::close_row(uint32_t bank, int64_t now) {
  timers_.precharge(bank, now);
  reads_.row_closed(bank);
  writes_.row_closed(bank);
  bump(DramCounter::precharges);
  record(DramCommand::precharge, bank, now);
}

bool DramChannel::pop_completed(int64_t now, DramCompletion& out) {
  if (returns_.empty() || returns_.front().cycle > now) return false;
  if (returns_.full()) wake_ = 0;  // reads held back for a slot may go now
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

// A bank's next possible command: a column command for one of its hits, or
// the row command its oldest request needs.
int64_t DramChannel::bank_event(const BankQueue& q, uint32_t bank) const {
  const int32_t head = q.head(bank);
  if (head == kNil) return dram::kNever;
  if (q.hits(bank) == 0) return entry_event(q.entry(head));
  int64_t t = dram::kNever;
  for (int32_t s = head; s != kNil; s = q.next(s))
    if (row_need(q.entry(s), timers_) == RowNeed::none) t = std::min(t, entry_event(q.entry(s)));
  return t;
}

// Earliest cycle after now_ at which a command could issue. A lower bound is
// enough: a tick there may still find nothing to do.
int64_t DramChannel::next_command_cycle() {
  if (refresh_pending_) return now_ + 1;
  int64_t t = refresh_due_;
  const BankQueue& q = active_queue();
  q.queued_banks().for_each([&](uint32_t b) { t = std::min(t, bank_event(q, b)); });
  return t == dram::kNever ? t : std::max(t, now_ + 1);
}

int64_t DramChannel::next_event_cycle() const {
  int64_t t = wake_ == dram::kNever ? dram::kNever : std::max(wake_, now_ + 1);
  if (!returns_.empty()) t = std::min(t, returns_.front().cycle);
  return t;
}

void DramChannel::record(DramCommand cmd, uint32_t bank, int64_t now) {
  if (log_ != nullptr) log_->push_back({now, cmd, bank});
}

std::string DramChannel::describe() const {
  std::string s = name_ + ": " + std::to_string(reads_.size()) + " queued, " +
                  std::to_string(writes_.size()) + " writes queued, " +
                  std::to_string(returns_.size()) + " returns";
  if (draining_) s += ", draining writes";
  if (refresh_pending_) s += ", refresh pending";
  return s;
}

}  // namespace accelsim::dram
