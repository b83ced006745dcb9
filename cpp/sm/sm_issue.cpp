// The issue stage: each scheduler picks a warp by its policy and issues up to
// issue_width instructions from it, to its execution units or the LD/ST unit.
#include <algorithm>
#include <bit>

#include "sm/sm.h"

#include "base/bit_count.h"

namespace accelsim::sm {

using isa::InstRecord;

bool Sm::head_ready(const Warp& w, Cycle now) const {
  return w.active && !w.finished && !w.at_barrier && !w.ibuffer_empty() &&
         w.decode_ready <= now && !w.head_collides() && !waits_for_async(w);
}

// A candidate is active, unblocked and has decoded instructions, so only its
// decode time and registers are left to check; a warp whose head waits on a
// register is not looked at again until one of its results is written back.
bool Sm::may_issue(Warp& w, uint16_t slot, SubCore& sc, Cycle now) {
  if (!w.candidate || w.decode_ready > now) return false;
  // Until the warp issues, its registers and stores only complete, so a head
  // found clear stays clear while it waits for a unit or the LD/ST queue.
  if (w.head_clear) return true;
  if (!w.head_collides() && !waits_for_async(w)) {
    w.head_clear = w.head().unit == isa::kUnitMem ? Warp::kHeadClearMem : Warp::kHeadClear;
    return true;
  }
  w.waits_on_register = true;  // cleared by the next register write or store ack
  count_stall(w, stats::StallReason::SCOREBOARD);
  refresh_candidate(w);
  sc.scheduler->long_stall(slot);
  return false;
}

// Keeps each scheduler's count of warps that could issue once their decoded
// instructions are due; a scheduler with none skips the cycle. Called after
// every change to the flags it reads and to the instruction buffer's fill.
void Sm::refresh_candidate(Warp& w) {
  subcores_[w.scheduler].blocked = false;  // the warp changed: pass again
  bool now_candidate = w.active && !w.finished && !w.at_barrier && !w.waits_on_register &&
                       !w.ibuffer_empty();
  if (now_candidate == w.candidate) return;
  w.candidate = now_candidate;
  subcores_[w.scheduler].candidates += now_candidate ? 1 : -1;
}

void Sm::issue(Cycle now) {
  // Rotate which sub-core goes first so none is starved of shared resources
  // (the LD/ST queue frees about one slot per cycle).
  const size_t n = subcores_.size();
  size_t i = size_t(now.count() % n);
  for (size_t k = 0; k < n; ++k, i = (i + 1 == n) ? 0 : i + 1) {
    SubCore& sc = subcores_[i];
    if (sc.candidates == 0 || repeat_blocked_pass(sc, now)) continue;
    scan_subcore(sc, now);
  }
}

// A pass that would find what the last one found counts its stalls alone.
bool Sm::repeat_blocked_pass(const SubCore& sc, Cycle now) {
  if (!sc.blocked || now >= sc.blocked_until || ldst_.can_accept()) return false;
  stat_.stalls[sc.blocked_stream * stats::kStallReasons + int(stats::StallReason::LDST_FULL)] +=
      sc.blocked_stalls;
  return true;
}

// One scheduler's pass over its warps in priority order: the first that can
// issue does. Notes whether the pass may be repeated by its stall counts.
void Sm::scan_subcore(SubCore& sc, Cycle now) {
  bool repeatable = true;
  uint32_t stalls = 0;
  uint8_t stream = 0;
  Cycle until = kNever;
  for (uint16_t slot : sc.scheduler->order()) {
    Warp& w = warps_[slot];
    if (w.candidate && w.decode_ready > now) until = earliest(until, w.decode_ready);
    else if (w.candidate && !w.head_clear) repeatable = false;  // its head is looked at now
    if (!may_issue(w, slot, sc, now)) continue;
    // What issue_one would find first, without the call: on memory-bound
    // kernels most tries are loads and stores meeting a full LD/ST queue.
    if (w.head_clear == Warp::kHeadClearMem && !ldst_.can_accept()) {
      count_stall(w, stats::StallReason::LDST_FULL);
      if (stalls++ == 0) stream = w.stream;
      repeatable = repeatable && w.stream == stream;
      continue;
    }
    repeatable = false;
    if (issue_from(w, sc, now)) {
      sc.scheduler->issued(slot);
      progress_ = true;
      sc.blocked = false;
      return;
    }
  }
  // Any warp that changed during the pass made it unrepeatable above.
  sc.blocked = repeatable && stalls > 0;
  sc.blocked_stream = stream;
  sc.blocked_stalls = stalls;
  sc.blocked_until = until;
}

// The head passed may_issue; later instructions (dual issue) are checked here.
bool Sm::issue_from(Warp& w, SubCore& sc, Cycle now) {
  uint16_t slot = uint16_t(&w - warps_.data());
  int first_unit = w.head().unit;
  if (!issue_one(w, slot, sc, now)) return false;
  for (uint32_t issued = 1; issued < issue_width_ && head_ready(w, now); ++issued) {
    int unit = w.head().unit;
    if (p_.dual_issue_diff_units && unit == first_unit) break;
    if (!issue_one(w, slot, sc, now)) break;
    first_unit = unit;
  }
  refresh_candidate(w);  // the buffer may have run empty
  maybe_finish(slot);
  return true;
}

bool Sm::issue_one(Warp& w, uint16_t slot, SubCore& sc, Cycle now) {
  const InstRecord& in = w.head();
  const CtaShape& shape = ctas_[w.cta_slot].shape;
  switch (in.unit) {
    case isa::kUnitMem: {
      if (!ldst_.can_accept()) return count_stall(w, stats::StallReason::LDST_FULL), false;
      const uint64_t* addrs = (in.flags & isa::kFlagHasAddrs)
                                  ? ctas_[w.cta_slot].warp_addrs[w.warp_in_cta] + in.addr_offset
                                  : nullptr;
      if (in.dst != isa::kNoReg) {
        w.scoreboard.reserve(in.dst);
        ++w.pending_writes;
      } else {
        ++w.pending_stores;
      }
      ldst_.issue(in, addrs, slot, w.stream, now);
      break;
    }
    case isa::kUnitBarrier:
      arrive_at_barrier(w);
      break;
    case isa::kUnitExit:
    case isa::kUnitNop:
      break;
    default:
      if (!issue_to_unit(w, slot, sc, shape, now)) return false;
  }
  if (issue_log_) issue_log_->push_back(IssueEvent{now.count(), slot, in.pc});
  ++w.next_issue;
  w.head_clear = 0;
  if (w.ibuffer_empty() && !w.all_issued()) {
    fetch_.request(slot);
    // Streamed: past the low-water mark, ask for more (Sm::refill). Looked
    // at once per instruction-buffer load, not per instruction (see
    // take_window: the mark is placed a buffer earlier).
    if (w.next_issue >= w.refill_at) [[unlikely]] {
      Cta& c = ctas_[w.cta_slot];
      if (!c.hungry) c.hungry = true, hungry_.push_back(w.cta_slot);
    }
  }
  stats::SmCounters& c = counters_[w.stream];
  ++c.warp_insts;
  c.thread_insts += bit_count(in.active_mask);
  ++stat_.insts[w.stream * stats::kInstClasses + std::min<int>(in.unit, stats::kInstClasses - 1)];
  return true;
}

// An execution unit's instruction: a free pipeline of its kind and, when the
// register file is timed, a free operand collector; it dispatches once its
// operands are read and its result is written `latency` cycles later.
bool Sm::issue_to_unit(Warp& w, uint16_t slot, SubCore& sc, const CtaShape& shape, Cycle now) {
  const InstRecord& in = w.head();
  int kind = shape.units ? shape.units->kind_of(in.unit) : UnitMap::kNoUnit;
  if (kind == UnitMap::kNoUnit) return true;  // no unit executes it: behaves as a NOP
  int pipe = sc.units->free_pipeline(kind, now);
  if (pipe < 0) return count_stall(w, stats::StallReason::UNIT_BUSY), false;
  Cycle dispatch = now;
  if (sc.collector->enabled()) [[unlikely]] {
    if (!sc.collector->has_free_collector(now)) return count_stall(w, stats::StallReason::UNIT_BUSY), false;
    dispatch = sc.collector->collect(in, slot, w.age, now);
  }
  Cycle ready = sc.units->occupy(kind, pipe, dispatch, in.lat_class);
  if (in.dst != isa::kNoReg) {
    w.scoreboard.reserve(in.dst);
    ++w.pending_writes;
    completions_.push(ready, Completion{slot, in.dst, Completion::kRegWrite});
  }
  return true;
}

void Sm::arrive_at_barrier(Warp& w) {
  Cta& c = ctas_[w.cta_slot];
  w.at_barrier = true;
  count_stall(w, stats::StallReason::BARRIER);
  refresh_candidate(w);
  ++c.at_barrier;
  if (c.at_barrier < c.warps_alive) return;
  release_barrier(c);
}

// Everyone arrived: the waiting warps may issue again from the next cycle.
void Sm::release_barrier(Cta& c) {
  for (uint32_t i = 0; i < c.trace.num_warps(); ++i) {
    Warp& w = warps_[c.warp_slots[i]];
    if (!w.at_barrier) continue;
    w.at_barrier = false;
    w.decode_ready = latest(w.decode_ready, now_ + 1);
    refresh_candidate(w);
  }
  c.at_barrier = 0;
}

void Sm::writeback(Cycle now) {
  while (completions_.due(now)) {
    Completion done = completions_.pop();
    Warp& w = warps_[done.warp];
    if (done.kind == Completion::kRegWrite) {
      w.scoreboard.release(done.reg);
      w.waits_on_register = false;
      refresh_candidate(w);
      --w.pending_writes;
    } else {
      --w.pending_stores;
      w.waits_on_register = false;  // a DEPBAR may now issue
      refresh_candidate(w);
    }
    progress_ = true;
    maybe_finish(done.warp);
  }
}

void Sm::maybe_finish(uint16_t slot) {
  Warp& w = warps_[slot];
  if (w.finished || !w.all_issued() || !w.drained()) return;
  w.finished = true;
  refresh_candidate(w);
  Cta& c = ctas_[w.cta_slot];
  subcores_[w.scheduler].scheduler->remove_warp(slot);
  --c.warps_alive;
  if (c.warps_alive == 0) {
    retire_cta(w.cta_slot);
  } else if (c.at_barrier > 0 && c.at_barrier >= c.warps_alive) {
    release_barrier(c);  // the exiting warp was the last one missing
  }
}

}  // namespace accelsim::sm
