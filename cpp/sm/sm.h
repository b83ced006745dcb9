// One streaming multiprocessor: resident CTAs and warps, fetch/decode, the
// schedulers with their execution units (sub-cores), and the LD/ST unit.
// A Clocked component: tick() is the pipeline recipe; next_tick() says when
// ticking is next needed, so an SM waiting on memory costs nothing per cycle.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ldst/ldst_unit.h"
#include "base/clocked.h"
#include "base/completion.h"
#include "sm/cta_shape.h"
#include "sm/exec/operand_collector.h"
#include "sm/exec/unit_set.h"
#include "sm/fetch.h"
#include "sm/sched/warp_scheduler.h"
#include "sm/sm_params.h"
#include "sm/warp.h"
#include "stats/sm_counters.h"
#include "stats/sm_stat_slots.h"
#include "trace/trace_reader.h"

namespace accelsim::sm {

class Sm final : public Clocked {
 public:

  // Built from its own parameters (sm_params(cfg) for a GPU's); responses
  // come back from `below`, which must outlive it.
  Sm(const SmParams& params, uint16_t id, MemPort* below);

  uint16_t id() const { return id_; }
  // Kernel boundary: sets the L1D / shared split (bytes of shared memory).
  void configure_kernel(uint32_t shmem_carveout_bytes);
  // Whether one more CTA of this shape fits (occupancy limits).
  bool can_launch(const CtaShape& shape) const;
  // Takes the CTA's decoded trace (swapped in; `tb` gets a spare buffer back).
  void launch(const CtaShape& shape, trace::ThreadBlockTrace& tb, Cycle now);
  // At most one CTA launch per SM per cycle.
  bool launched_this_cycle(Cycle now) const { return last_launch_ == now && launched_any_; }

  // Clocked, on core cycles.
  void tick(Cycle now) override;
  Cycle next_tick(Cycle now) const override {
    Cycle w = wake_cycle();
    return w == kNever ? kNever : latest(w, now);
  }
  // What the SM waits on: CTAs, warps by reason, results and memory in flight.
  std::string describe() const override;
  // When ticking is next needed: its own estimate, or earlier when the level
  // below delivered a response since (asynchronous memory models); may be in
  // the past (next_tick() clamps it).
  Cycle wake_cycle() const { return earliest(wake_, ldst_.next_response()); }
  bool has_ctas() const { return resident_ctas_ > 0; }
  // CTAs retired since the last call (for the CTA dispatcher).
  uint32_t take_retired() { uint32_t r = retired_; retired_ = 0; return r; }
  Cycle last_progress() const { return last_progress_; }
  // Streamed blocks (PTX mode): whether a warp ran low on records, and the
  // top-up itself. Call at a serial point only (it may emulate, which
  // writes shared device memory), after the cycle's tick.
  bool wants_refill() const { return !hungry_.empty(); }
  void refill(Cycle now);
  // Times a streamed warp had issued everything it had and waited for more.
  uint64_t stream_dry_waits() const { return dry_waits_; }
  // Accounts resident-warp cycles up to `now` (occupancy statistics).
  void account(Cycle now);

  // Counts into the run's families from now on (per stream slot); until
  // then into its own single-slot storage.
  void count_into(const stats::SmStatSlots& slots);
  // Its event counters summed over stream slots.
  stats::SmCounters counters() const;
  const ldst::LdstUnit& ldst() const { return ldst_; }
  // Test/trace hook: when set, every issue is appended (cycle, warp slot, pc).
  struct IssueEvent {
    uint64_t cycle;
    uint16_t warp;
    uint32_t pc;
  };
  void set_issue_log(std::vector<IssueEvent>* log) { issue_log_ = log; }

 private:
  struct Cta {
    trace::ThreadBlockTrace trace;
    CtaShape shape;
    uint16_t warp_slots[32];  // up to 1024 threads
    const uint64_t* warp_addrs[32];  // each warp's lane addresses (InstRecord::addr_offset)
    uint32_t warps_alive = 0;
    uint32_t at_barrier = 0;
    bool active = false;
    bool hungry = false;      // in hungry_
    isa::RecordStream* stream = nullptr;  // trace.stream, when streamed
  };
  struct SubCore {
    std::unique_ptr<WarpScheduler> scheduler;
    UnitSet* units;  // own set (sub-core) or the SM's shared one
    OperandCollector* collector;  // the same: own or the SM's
    int candidates = 0;  // owned warps not blocked (register, barrier, done)
    // What the last pass found when it issued nothing and every due warp was
    // a load or store meeting a full LD/ST queue: while no owned warp changes
    // (Sm::refresh_candidate forgets it), the queue stays full and no warp's
    // decode time comes due, the next pass would count the same stalls.
    bool blocked = false;
    uint8_t blocked_stream = 0;
    uint32_t blocked_stalls = 0;  // LDST_FULL stalls a pass counts
    Cycle blocked_until{0};       // the earliest pending decode time
  };

  // pipeline stages (sm_*.cpp)
  void writeback(Cycle now);
  void issue(Cycle now);
  bool issue_from(Warp& w, SubCore& sc, Cycle now);
  bool issue_one(Warp& w, uint16_t slot, SubCore& sc, Cycle now);
  bool issue_to_unit(Warp& w, uint16_t slot, SubCore& sc, const CtaShape& shape, Cycle now);
  bool head_ready(const Warp& w, Cycle now) const;
  bool waits_for_async(const Warp& w) const;
  bool may_issue(Warp& w, uint16_t slot, SubCore& sc, Cycle now);
  void scan_subcore(SubCore& sc, Cycle now);
  bool repeat_blocked_pass(const SubCore& sc, Cycle now);
  void refresh_candidate(Warp& w);
  void count_into_own_storage();
  void count_stall(const Warp& w, stats::StallReason r) {
    ++stat_.stalls[w.stream * stats::kStallReasons + int(r)];
  }
  void arrive_at_barrier(Warp& w);
  void release_barrier(Cta& c);
  void maybe_finish(uint16_t slot);
  void retire_cta(uint16_t cta_slot);
  void refill_cta(uint16_t cta_slot, Cycle now);
  void take_window(Warp& w, const isa::WarpWindow& win);
  Cycle compute_wake(Cycle now) const;
  int free_cta_slot() const;
  int free_warp_slot(int from) const;

  const SmParams p_;
  uint16_t id_;
  uint32_t max_warps_, issue_width_;
  std::vector<Warp> warps_;
  std::vector<Cta> ctas_;
  std::vector<UnitSet> unit_sets_;
  std::vector<OperandCollector> collectors_;  // one per unit set
  std::vector<SubCore> subcores_;
  CompletionQueue completions_;
  stats::SmStatSlots stat_;              // where events are counted
  std::vector<uint64_t> own_stats_;      // storage until count_into()
  stats::SmCounters* counters_ = nullptr;  // stat_.events, indexed by stream slot
  std::vector<uint32_t> slot_warps_, slot_ctas_;  // resident per stream slot (occupancy)
  uint8_t tick_slot_ = 0;                // stream of the latest CTA: owner of SM ticks
  FetchUnit fetch_;
  ldst::LdstUnit ldst_;
  // occupancy bookkeeping
  uint32_t resident_ctas_ = 0, used_threads_ = 0, used_warps_ = 0, used_regs_ = 0,
           used_shmem_ = 0, shmem_capacity_ = 0;
  uint32_t retired_ = 0;
  uint64_t next_age_ = 0;
  Cycle wake_ = kNever;
  Cycle last_progress_{0};
  Cycle accounted_until_{0};
  Cycle now_{0};  // cycle of the tick in progress
  Cycle last_launch_{0};
  bool launched_any_ = false;
  bool progress_ = false;
  std::vector<IssueEvent>* issue_log_ = nullptr;
  std::vector<uint16_t> hungry_;      // streamed CTAs with a warp below its low-water mark
  uint64_t dry_waits_ = 0;
};

// DEPBAR / SYNCS (the table's "depbar" class) wait for the warp's
// outstanding asynchronous copies (LDGSTS: a global load into shared memory,
// no register written) and stores. Approximation: DEPBAR.LE SB0, N is taken
// as N = 0, and ordinary stores in flight are waited for too. Inline: it is
// asked for every issue candidate, and almost always answered by the first test.
inline bool Sm::waits_for_async(const Warp& w) const {
  if (w.pending_stores == 0) [[likely]] return false;
  const UnitMap* units = ctas_[w.cta_slot].shape.units;
  return units && units->waits_for_async(w.head().unit);
}

}  // namespace accelsim::sm
