// 86x: clock domains and components ticked on them.
#include <deque>

#include "sim/clock_domains.h"
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;

namespace {
struct Recorder : Clocked {
  std::vector<uint64_t> ticks;
  uint64_t want_from = 0, want_until = UINT64_MAX;
  void tick(Cycle c) override { ticks.push_back(c.count()); }
  Cycle next_tick(Cycle c) const override {
    Cycle n = latest(c, Cycle(want_from));
    return n <= want_until ? n : kNever;
  }
  std::string describe() const override { return "recorder"; }
};
}  // namespace

TEST_CASE("861-other-domains-tick-at-their-own-period") {
  config::GpuConfig cfg;
  cfg.core_clock = 1000;
  cfg.dram_clock = 500;
  sim::ClockDomains clocks(cfg);
  Recorder r;
  clocks.attach(sim::ClockDomains::kDram, &r);
  CHECK(clocks.catch_up(Cycle(10)));  // 10 ns: DRAM cycles 0..5
  CHECK_EQ(r.ticks.size(), 6u);
  CHECK_EQ(r.ticks.back(), 5u);
  CHECK_EQ(clocks.next_core_cycle(), 12u);  // DRAM cycle 6 = 12 ns
  CHECK(!clocks.catch_up(Cycle(11)));
  CHECK_EQ(r.ticks.size(), 6u);
}

TEST_CASE("862-idle-components-are-skipped") {
  config::GpuConfig cfg;
  cfg.core_clock = 1000;
  cfg.l2_clock = 1000;
  sim::ClockDomains clocks(cfg);
  Recorder r;
  r.want_from = 1000;
  r.want_until = 1001;
  clocks.attach(sim::ClockDomains::kL2, &r);
  CHECK(!clocks.catch_up(Cycle(999)));
  CHECK_EQ(clocks.next_core_cycle(), 1000u);
  clocks.catch_up(Cycle(5000));
  CHECK_EQ(r.ticks.size(), 2u);
  CHECK_EQ(clocks.next_core_cycle(), Clocked::kNever);
}

namespace {
// A level below L1 that answers each request after `delay` cycles of the L2
// clock, ticked by the GPU's run loop on that domain.
class L2DelayLine : public MemPort, public Clocked {
 public:
  explicit L2DelayLine(uint64_t delay) : delay_(delay) {}
  void connect(uint16_t sm, ResponseQueue* q) override {
    if (sinks_.size() <= sm) sinks_.resize(sm + 1);
    sinks_[sm] = q;
  }
  bool send(const MemRequest& r, Cycle) override {
    inbox_.push_back(r);
    return true;
  }
  uint64_t outstanding() const override { return inbox_.size() + pending_.size(); }
  std::vector<ClockedPart> clocked_parts() override { return {{ClockDomain::l2, this}}; }
  void tick(Cycle c) override {
    for (const auto& r : inbox_) pending_.push_back({c + delay_, r});
    inbox_.clear();
    while (!pending_.empty() && pending_.front().first <= c) {
      const auto& r = pending_.front().second;
      sinks_[r.sm]->push(core_now(c), MemResponse{r.line_addr, r.token, r.sector_mask, r.kind});
      pending_.pop_front();
    }
    ++ticks;
  }
  Cycle next_tick(Cycle c) const override {
    if (!inbox_.empty()) return c;
    return pending_.empty() ? kNever : latest(c, pending_.front().first);
  }
  std::string describe() const override { return "l2 delay line"; }
  uint64_t ticks = 0;

 private:
  static Cycle core_now(Cycle l2_cycle) { return Cycle(l2_cycle.count() / 2); }  // l2 at 2x core
  uint64_t delay_;
  std::vector<ResponseQueue*> sinks_;
  std::vector<MemRequest> inbox_;
  std::deque<std::pair<Cycle, MemRequest>> pending_;
};
}  // namespace

TEST_CASE("863-memory-on-another-domain-drives-load-latency") {
  config::GpuConfig cfg = small_config();
  cfg.core_clock = 1000;
  cfg.l2_clock = 2000;  // twice the core clock
  auto line = std::make_unique<L2DelayLine>(400);  // 400 L2 cycles = 200 core cycles
  L2DelayLine* l2 = line.get();
  sim::Gpu gpu(cfg, std::move(line));
  std::vector<sm::Sm::IssueEvent> log;
  gpu.sm(0).set_issue_log(&log);
  BlockBuilder b(1);
  b.mem(0, 1, 10, isa::kMemGlobal, isa::kFlagLoad | isa::kFlagBypassL1, 4,
        [](int l) { return uint64_t(l) * 4; });
  b.add(0, iadd(2, {1})).add(0, exit_inst());
  auto src = kernel(kernel_info(1, 32), {b.build()});
  stats::KernelRecord rec;
  CHECK(gpu.run_kernel(*src, rec));
  uint64_t lat = issue_cycle(log, 0, 16) - issue_cycle(log, 0, 0);
  CHECK(lat >= 200 && lat <= 205);
  CHECK(l2->ticks < 10);  // ticked only when it had work
}
