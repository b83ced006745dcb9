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
    insts.reserve(8);
    addrs.reserve(8);
  }
  void load(uint16_t reg, uint64_t base, uint8_t flags, Cycle now) {
    InstRecord in = alu(isa::kUnitMem, reg - 1, {0});
    in.mem_space = isa::kMemGlobal;
    in.flags |= uint8_t(isa::kFlagLoad | isa::kFlagHasAddrs | flags);
    in.access_bytes = 4;
    insts.push_back(in);
    addrs.emplace_back();
    for (int l = 0; l < 32; ++l) addrs.back().push_back(base + 4u * l);
    unit->issue(insts.back(), addrs.back().data(), 0, 0, now);
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
