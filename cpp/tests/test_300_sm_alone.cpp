// 31x: one SM built alone from its SmParams (no GpuConfig, no GPU), over a
// fixed-latency level below: the Clocked contract (tick / next_tick /
// describe), occupancy limits from its parameters, idle cycles skipped.
#include "sim/kernel_source.h"
#include "sm/sm.h"
#include "tests/fixed_latency_port.h"
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;

namespace {

sm::SmParams alone_params() {
  sm::SmParams p;
  p.units = {sm::UnitKind{"sp", 4, 4, 2, {"sp", "alu"}}, sm::UnitKind{"int", 4, 2, 1, {"int"}}};
  p.fetch.perfect_icache = true;
  p.ldst.perfect_const = true;
  p.l1d_size = p.ldst.l1d.size_bytes;
  return p;
}

struct Alone {
  sm::SmParams params = alone_params();
  FixedLatencyPort port{500};
  sm::Sm sm{params, 0, &port};
  sm::UnitMap units;
  uint32_t resident = 0;
  std::vector<sm::Sm::IssueEvent> log;

  Alone() {
    units.build(params.units, sim::default_unit_class_names());
    sm.configure_kernel(0);
    sm.set_issue_log(&log);
  }
  sm::CtaShape shape(uint32_t warps, uint32_t regs = 16 * 32) {
    return sm::CtaShape{0, warps * 32, warps, regs * warps, 0, 32, &units, &resident, 0};
  }
  // Ticks only when the SM asks (next_tick); returns the cycle it went idle.
  Cycle run(const BlockBuilder& b, Cycle limit = Cycle(100000)) {
    trace::ThreadBlockTrace tb = b.build();
    ++resident;
    sm.launch(shape(uint32_t(b.warps.size())), tb, Cycle(0));
    Cycle now{0};
    while (now < limit) {
      sm.tick(now);
      Cycle next = sm.next_tick(now + 1);
      if (next == Clocked::kNever) return now;
      now = next;
    }
    return now;
  }
};

}  // namespace

TEST_CASE("311-sm-alone-dependent-alu-waits-its-unit-latency") {
  Alone a;
  BlockBuilder b(1);
  b.add(0, ffma(1, {0})).add(0, ffma(2, {1})).add(0, exit_inst());
  a.run(b);
  CHECK(!a.sm.has_ctas());
  CHECK_EQ(a.resident, 0u);
  CHECK_EQ(issue_cycle(a.log, 0, 16) - issue_cycle(a.log, 0, 0), uint64_t(4));  // sp latency
  CHECK_EQ(a.sm.next_tick(Cycle(1000)), Clocked::kNever);  // idle: never needs a tick
}

TEST_CASE("312-sm-alone-load-goes-below-and-idle-cycles-are-skipped") {
  Alone a;
  BlockBuilder b(1);
  b.mem(0, 1, 0, isa::kMemGlobal, isa::kFlagLoad, 4, [](int l) { return 0x1000 + 4u * l; });
  b.add(0, iadd(2, {1})).add(0, exit_inst());
  Cycle end = a.run(b);
  CHECK_EQ(a.port.sent.size(), size_t(4));  // one line: its four sectors miss in L1D
  int sectors = 0;
  for (const MemRequest& r : a.port.sent) {
    CHECK_EQ(r.line_addr, uint64_t(0x1000));
    sectors |= r.sector_mask;
  }
  CHECK_EQ(sectors, 0xF);
  CHECK(issue_cycle(a.log, 0, 16) - issue_cycle(a.log, 0, 0) >= a.port.latency);
  CHECK(end >= a.port.latency);
  CHECK(a.sm.counters().ticks < 50);  // ticked while working, not while waiting
}

TEST_CASE("313-sm-alone-occupancy-limits-come-from-its-params") {
  sm::SmParams p = alone_params();
  p.registers = 4096;
  p.max_ctas = 2;
  FixedLatencyPort port(10);
  sm::Sm s(p, 3, &port);
  sm::UnitMap units;
  units.build(p.units, sim::default_unit_class_names());
  s.configure_kernel(0);
  uint32_t resident = 0;
  sm::CtaShape big{0, 64, 2, 8192, 0, 8, &units, &resident, 0};
  CHECK(!s.can_launch(big));  // more registers than the SM has
  sm::CtaShape small{0, 32, 1, 1024, 0, 8, &units, &resident, 0};
  for (int i = 0; i < 2; ++i) {
    CHECK(s.can_launch(small));
    BlockBuilder b(1);
    b.add(0, exit_inst());
    trace::ThreadBlockTrace tb = b.build();
    s.launch(small, tb, Cycle(i));
  }
  CHECK(!s.can_launch(small));  // max_ctas reached
}

TEST_CASE("314-sm-alone-describe-says-what-it-waits-on") {
  Alone a;
  BlockBuilder b(1);
  b.mem(0, 1, 0, isa::kMemGlobal, isa::kFlagLoad, 4, [](int l) { return 0x2000 + 4u * l; });
  b.add(0, iadd(2, {1})).add(0, exit_inst());
  trace::ThreadBlockTrace tb = b.build();
  ++a.resident;
  a.sm.launch(a.shape(1), tb, Cycle(0));
  for (Cycle c{0}; c < Cycle(20); ++c) a.sm.tick(c);  // the load is out; the add waits on it
  std::string d = a.sm.describe();
  CHECK(d.find("sm[0]") != std::string::npos);
  CHECK(d.find("1 CTAs") != std::string::npos);
  CHECK(d.find("1 waiting on registers") != std::string::npos);
  CHECK(a.sm.next_tick(Cycle(20)) >= 20);
}
