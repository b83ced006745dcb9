// The LD/ST unit of one SM: takes warp memory instructions in order, coalesces
// global accesses into sector requests for the L1D (or straight below when
// bypassing), times shared memory by bank conflicts and constants by the
// constant cache, and turns returning data into completions for the SM.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cache/cache.h"
#include "cache/tag_array.h"
#include "ldst/coalescer.h"
#include "ldst/ldst_params.h"
#include "ldst/mem_op_slots.h"
#include "base/mem_port.h"
#include "base/completion.h"
#include "stats/sm_counters.h"
#include "stats/sm_stat_slots.h"
#include "isa/inst_record.h"

namespace accelsim::ldst {

class LdstUnit {
 public:
  LdstUnit(const LdstParams& params, uint16_t sm, MemPort* below, CompletionQueue* completions);
  // Counts per stream slot into these (SM events, L1D, L1C); see Sm::count_into.
  void count_into(const stats::SmStatSlots& slots);

  // Kernel boundary: rebuilds the L1D at `bytes` (adaptive L1 / shared split).
  void set_l1d_size(int64_t bytes);
  int64_t l1d_size() const { return l1d_bytes_; }

  bool can_accept() const { return queued_ < queue_.size(); }
  // `addrs` = the instruction's 32 lane addresses (kept alive by the CTA).
  // `stream` = the warp's stream slot: every access it causes counts there.
  void issue(const isa::InstRecord& inst, const uint64_t* addrs, uint16_t warp, uint8_t stream,
             Cycle now);

  // Streamed records (PTX mode) move when their warp's buffer is refilled:
  // the oldest record of warp `warp` this unit still references (queued or
  // being accessed), or nullptr; and the re-basing of those references when
  // the warp's records moved from `from` to `to` with `dropped` records (and
  // `dropped_addrs` addresses) gone from the front. Between cycles only.
  const isa::InstRecord* oldest_of(uint16_t warp) const;
  void relocate(uint16_t warp, const isa::InstRecord* from, const isa::InstRecord* to, uint32_t dropped,
                const uint64_t* from_addrs, const uint64_t* to_addrs, uint32_t dropped_addrs);

  // Pipeline stages, in the order the SM calls them each cycle.
  bool deliver(Cycle now);  // responses from below fill L1D, complete loads
  bool access(Cycle now);   // the instruction at the head does its accesses
  bool send(Cycle now);     // L1D miss queue -> level below

  Cycle next_event(Cycle now) const;
  bool idle() const;
  ResponseQueue* responses() { return &responses_; }
  Cycle next_response() const { return responses_.next_ready(); }
  const cache::Cache* l1d() const { return l1d_.get(); }
  std::string describe() const;

 private:
  struct Pending {
    const isa::InstRecord* inst = nullptr;
    const uint64_t* addrs = nullptr;
    uint16_t warp = 0;
    uint8_t stream = 0;
  };
  static constexpr uint32_t kDirect = 1u << 31;  // token: bypass/atomic, low bits = slot

  void start(const Pending& p, Cycle now);
  void start_shared(const Pending& p, uint32_t slot, Cycle now);
  void start_const(const Pending& p, uint32_t slot, Cycle now);
  uint64_t const_latency(const Pending& p, Cycle now);
  bool banked_steps(Cycle now);
  bool global_step(Cycle now);
  bool direct_step(Cycle now);
  uint8_t direct_granules(const CoalescedRequest& r) const;
  bool l1_step(Cycle now);
  void pop_head();
  bool tagged(const isa::InstRecord& in) const;
  Cycle head_ready() const;
  static Cycle after(Cycle ready, Cycle now);
  bool is_direct(const isa::InstRecord& in) const;

  const LdstParams p_;
  uint16_t sm_;
  MemPort* below_;
  CompletionQueue* completions_;
  stats::SmCounters* counters_ = nullptr;  // [stream slot]
  stats::SmStatSlots stat_;
  void attach_l1d_counters();
  void count_l1c(uint8_t stream, bool hit);
  std::unique_ptr<cache::Cache> l1d_;
  std::unique_ptr<cache::TagArray> l1c_;  // null = perfect constant cache
  int64_t l1d_bytes_ = 0;
  bool write_through_ = true;
  ResponseQueue responses_;
  MemOpSlots slots_;

  std::vector<Pending> queue_;  // ring of issued, not yet started instructions
  uint32_t head_ = 0, queued_ = 0;

  // the instruction being accessed
  bool busy_ = false;
  Pending cur_;
  uint32_t cur_slot_ = 0;
  uint32_t nreq_ = 0, next_req_ = 0;
  uint8_t done_sectors_ = 0;  // sectors of reqs_[next_req_] already accepted
  Cycle busy_until_{0};       // shared-memory conflicts / constant port
  // The address (tag) stage: a global / local instruction holds it for its
  // active threads / address_rate cycles. Counted in thread addresses
  // (cycle x rate), so a fraction of a cycle carries to the next instruction.
  uint64_t addr_free_ = 0;
  CoalescedRequest reqs_[kMaxCoalescedRequests];
};

}  // namespace accelsim::ldst
