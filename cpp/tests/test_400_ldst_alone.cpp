// 47x: the LD/ST unit built alone from its LdstParams (no SM, no GPU), its
// pipeline stages driven by hand in the order the SM calls them: L1D misses
// go below and complete on the response, hits complete after the hit
// latency, bypassing loads go straight below; the parameters derived from a
// GpuConfig in one place.
#include <vector>

#include "base/error.h"
#include "ldst/ldst_unit.h"
#include "stats/sm_stat_slots.h"
#include "tests/fixed_latency_port.h"
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;

namespace {

// Counter storage for one stream slot, as the SM provides it.
struct OwnCounters {
  static constexpr size_t kCache = size_t(cache::kAccessTypes) * cache::kOutcomes;
  std::vector<stats::SmCounters> events = std::vector<stats::SmCounters>(1);
  std::vector<uint64_t> words =
      std::vector<uint64_t>(stats::kInstClasses + stats::kStallReasons + 3 * kCache +
                            size_t(cache::kAccessTypes) * cache::kFailReasons);
  stats::SmStatSlots slots() {
    stats::SmStatSlots s;
    s.events = events.data();
    s.insts = words.data();
    s.stalls = s.insts + stats::kInstClasses;
    s.l1i = s.stalls + stats::kStallReasons;
    s.l1c = s.l1i + kCache;
    s.l1d = s.l1c + kCache;
    s.l1d_fails = s.l1d + kCache;
    return s;
  }
};

struct Alone {
  ldst::LdstParams params;
  FixedLatencyPort port{300};
  CompletionQueue done;
  OwnCounters counters;
  std::unique_ptr<ldst::LdstUnit> unit;
  std::vector<InstRecord> insts;
  std::vector<std::vector<uint64_t>> addrs;

  explicit Alone(ldst::LdstParams p = {}) : params(p) {
    unit = std::make_unique<ldst::LdstUnit>(params, 0, &port, &done);
    port.connect(0, unit->responses());
    unit->count_into(counters.slots());
    insts.reserve(64);  // the unit keeps pointers into these
    addrs.reserve(64);
  }
  void load(uint16_t reg, uint64_t base, uint8_t flags, Cycle now) {
    access(reg, base, 4, ~0u, isa::kMemGlobal, now, flags);
  }
  // A warp load of `bytes` per lane at consecutive addresses from `base`.
  void access(uint16_t reg, uint64_t base, uint8_t bytes, uint32_t mask, uint8_t space, Cycle now,
              uint8_t flags = 0) {
    InstRecord in = alu(isa::kUnitMem, reg - 1, {0}, mask);
    in.mem_space = space;
    in.flags |= uint8_t(isa::kFlagLoad | isa::kFlagHasAddrs | flags);
    in.access_bytes = bytes;
    insts.push_back(in);
    addrs.emplace_back();
    for (uint32_t l = 0; l < 32; ++l) addrs.back().push_back(base + uint64_t(bytes) * l);
    unit->issue(insts.back(), addrs.back().data(), 0, 0, now);
  }
  // Runs the stages until `n` completions were due; returns the last one's cycle.
  Cycle until_all_done(Cycle from, uint32_t n) {
    Cycle last = from;
    for (Cycle c = from; n > 0 && c < Cycle(100000); ++c) {
      unit->deliver(c);
      unit->send(c);
      unit->access(c);
      while (n > 0 && done.due(c)) {
        done.pop();
        --n;
        last = c;
      }
    }
    return n == 0 ? last : Clocked::kNever;
  }
  // Runs the stages until a completion is due; returns its cycle.
  Cycle until_done(Cycle from, Cycle limit = Cycle(10000)) {
    for (Cycle c = from; c < limit; ++c) {
      unit->deliver(c);
      unit->send(c);
      unit->access(c);
      if (done.due(c)) {
        done.pop();
        return c;
      }
    }
    return Clocked::kNever;
  }
};

}  // namespace

TEST_CASE("471-ldst-alone-miss-goes-below-hit-takes-hit-latency") {
  Alone a;
  a.load(R(1), 0x4000, 0, Cycle(0));
  Cycle miss = a.until_done(Cycle(1));
  CHECK_EQ(a.port.sent.size(), size_t(4));  // a sector miss each
  CHECK(miss >= a.port.sent_at.back() + a.port.latency);
  a.load(R(2), 0x4000, 0, miss);  // same line: now an L1D hit
  Cycle hit = a.until_done(miss + 1);
  CHECK_EQ(a.port.sent.size(), size_t(4));  // nothing more went below
  CHECK_EQ(hit - miss, a.params.l1d_hit_latency);  // load-to-use from issue
  CHECK_EQ(a.counters.events[0].l1d_hits, uint64_t(4));
  CHECK_EQ(a.counters.events[0].l1d_misses, uint64_t(4));
  CHECK(a.unit->idle());
}

TEST_CASE("472-ldst-alone-bypass-goes-straight-below-and-waits-out-back-pressure") {
  Alone a;
  a.port.refuse_until = 50;
  a.load(R(1), 0x8000, isa::kFlagBypassL1, Cycle(0));
  Cycle done = a.until_done(Cycle(1));
  CHECK_EQ(a.port.sent.size(), size_t(1));
  CHECK_EQ(a.port.sent_at[0], uint64_t(50));  // retried until accepted
  CHECK(done >= 50 + a.port.latency);
  CHECK_EQ(a.counters.events[0].l1d_bypass, uint64_t(4));
  CHECK_EQ(a.counters.events[0].l1d_hits + a.counters.events[0].l1d_misses, uint64_t(0));
}

TEST_CASE("473-ldst-params-derive-from-the-gpu-config-in-one-place") {
  config::GpuConfig cfg = small_config();
  ldst::LdstParams p = ldst::ldst_params(cfg);
  CHECK_EQ(p.queue_depth, uint32_t(std::max<int64_t>(1, cfg.ldst_units_per_sm)));
  CHECK_EQ(p.l1d.size_bytes, cfg.l1d_size);
  CHECK_EQ(p.l1d.assoc, uint32_t(cfg.l1d_assoc));
  CHECK_EQ(p.l1d_hit_latency, uint64_t(cfg.l1d_hit_latency));
  CHECK_EQ(p.coalescer.sector_bytes, uint32_t(cfg.l1d_sector));
  // The adaptive split resizes by ways, keeping the sets.
  cache::CacheParams twice = p.l1d_at(2 * cfg.l1d_size, 3);
  CHECK_EQ(twice.assoc, 2 * p.l1d.assoc);
  CHECK_EQ(twice.stream_slots, 3u);
  CHECK_THROWS(p.l1d_at(cfg.l1d_size + 1, 1), ConfigError);
}

namespace {

// `n` warp loads of `bytes` per lane (active lanes `mask`) from one L1D line
// group that a first load warmed; the cycles from issue to the last completion.
uint64_t burst_cycles(uint32_t rate, uint32_t n, uint8_t bytes, uint32_t mask, uint8_t space) {
  ldst::LdstParams p;
  p.queue_depth = 64;
  p.address_rate = rate;
  Alone a(p);
  a.access(R(1), 0x4000, bytes, ~0u, isa::kMemGlobal, Cycle(0));  // warm the lines
  Cycle warm = a.until_all_done(Cycle(1), 1);
  for (uint32_t i = 0; i < n; ++i) a.access(R(2 + int(i)), 0x4000, bytes, mask, space, warm);
  Cycle last = a.until_all_done(warm + 1, n);
  CHECK(last != Clocked::kNever);
  return last - warm;
}

}  // namespace

TEST_CASE("481-ldst-address-stage-limits-narrow-warp-accesses") {
  // A whole warp's 32-bit hits: one line, one data-port cycle each; at 20
  // addresses per cycle the address stage starts 20 / 32 of an instruction
  // per cycle, the fraction carried (not rounded up to 2 cycles each).
  const uint32_t n = 40;
  uint64_t free_rate = burst_cycles(32, n, 4, ~0u, isa::kMemGlobal);
  uint64_t limited = burst_cycles(20, n, 4, ~0u, isa::kMemGlobal);
  // The last of n starts (n - 1) x 32 / 20 cycles after the first, not n - 1.
  CHECK_EQ(limited - free_rate, uint64_t((n - 1) * 32 / 20 - (n - 1)));
  // A quarter warp has 8 addresses: under a cycle's worth, no slower.
  CHECK_EQ(burst_cycles(20, n, 4, 0xffu, isa::kMemGlobal), burst_cycles(32, n, 4, 0xffu, isa::kMemGlobal));
  // 64-bit hits take two data-port cycles each, longer than 32 addresses at 20
  // per cycle: the address stage overlaps the data port and costs nothing.
  CHECK_EQ(burst_cycles(20, n, 8, ~0u, isa::kMemGlobal), burst_cycles(32, n, 8, ~0u, isa::kMemGlobal));
}

TEST_CASE("482-ldst-address-stage-skips-shared-and-reports-its-wait") {
  // Shared memory has its own path: no address-stage limit.
  CHECK_EQ(burst_cycles(8, 40, 4, ~0u, isa::kMemShared), burst_cycles(32, 40, 4, ~0u, isa::kMemShared));
  // While the head waits for the address stage, next_event names the cycle
  // it may start, so an SM skipping idle cycles wakes in time.
  ldst::LdstParams p;
  p.queue_depth = 4;
  p.address_rate = 8;  // a whole warp holds the stage 4 cycles
  Alone a(p);
  a.load(R(1), 0x4000, 0, Cycle(0));
  Cycle w = a.until_all_done(Cycle(1), 1);  // warm: the loads below hit
  a.load(R(2), 0x4000, 0, w);
  a.load(R(3), 0x4000, 0, w);
  CHECK(a.unit->access(w + 1));  // the first starts (and hits)
  for (uint64_t c = 2; c < 5; ++c) CHECK(!a.unit->access(w + c));  // the second waits
  CHECK_EQ(a.unit->next_event(w + 2), w + 5);
  CHECK(a.unit->access(w + 5));
}
