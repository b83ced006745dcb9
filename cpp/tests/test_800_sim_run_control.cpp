// 37x: run control: the cycle budget inside kernels and copies, the poll hook
// that stops a run (Ctrl-C from Python), the livelock watchdog.
#include <chrono>
#include <ctime>
#include <string>
#include <thread>

#include "base/error.h"
#include "sim/gpu.h"
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;

namespace {

// A level below L1 that accepts requests, never answers, and keeps itself
// busy every cycle (something retrying without end): the clock keeps
// advancing with activity, so only the livelock watchdog can end the run.
class SpinningHole : public MemPort, public Clocked {
 public:
  void connect(uint16_t, ResponseQueue*) override {}
  bool send(const MemRequest&, uint64_t) override { ++sent; return true; }
  uint64_t outstanding() const override { return sent; }
  std::vector<ClockedPart> clocked_parts() override { return {ClockedPart{ClockDomain::core, this}}; }
  void tick(uint64_t) override { ++ticks; }
  uint64_t next_tick(uint64_t cycle) const override { return sent ? cycle : kNever; }
  std::string describe() const override { return "gpu.spinning_hole: retrying request 0 forever"; }
  uint64_t sent = 0, ticks = 0;
};

// A long compute-bound kernel: many CTAs of dependent FFMAs.
std::unique_ptr<sim::MemoryKernelSource> long_kernel(int ctas) {
  BlockBuilder b(1);
  for (int i = 0; i < 3000; ++i) b.add(0, ffma(1, {1}));
  b.add(0, exit_inst());
  std::vector<trace::ThreadBlockTrace> blocks;
  for (int i = 0; i < ctas; ++i) blocks.push_back(b.build());
  return kernel(kernel_info(uint32_t(ctas), 32), blocks);
}

}  // namespace

TEST_CASE("881-livelock-watchdog-names-what-waits") {
  config::GpuConfig cfg = small_config();
  cfg.deadlock_cycles = 1000;
  cfg.livelock_window_cycles = 20000;
  cfg.kernel_launch_latency = 10;
  auto hole = std::make_unique<SpinningHole>();
  SpinningHole* h = hole.get();
  sim::Gpu gpu(cfg, std::move(hole));
  auto src = load_then_use();
  std::string msg = deadlock_message(gpu, *src);
  CHECK(msg.find("livelock") != std::string::npos);
  CHECK(msg.find("livelock_window_cycles") != std::string::npos);
  CHECK(msg.find("sm[0]") != std::string::npos);
  CHECK(msg.find("spinning_hole: retrying") != std::string::npos);
  // Between one and one and a half windows after the last useful work (it
  // is looked for every quarter window), at the same cycle every run.
  CHECK(gpu.now() >= 20000u && gpu.now() <= 30000u + 100u);
  CHECK(h->ticks > 10000u);  // it really was busy: the plain watchdog could not fire
}

TEST_CASE("882-budget-stops-inside-a-kernel-and-never-rewinds") {
  config::GpuConfig cfg = small_config();
  sim::Gpu gpu(cfg);
  auto src = long_kernel(8);
  stats::KernelRecord rec;
  CHECK(!gpu.run_kernel(*src, rec, 3000));
  CHECK_EQ(gpu.now(), uint64_t{3000});
  CHECK(rec.status == stats::KernelStatus::CutOff);
  CHECK(rec.cycles() <= 3000u);
  // A record whose end precedes its launch reads as 0 cycles, never a wrap.
  stats::KernelRecord odd;
  odd.launch_cycle = 10;
  odd.end_cycle = 5;
  CHECK_EQ(odd.cycles(), uint64_t{0});
}

TEST_CASE("883-budget-stops-inside-a-copy") {
  config::GpuConfig cfg;
  cfg.memory_model = "detailed";  // copies timed through L2
  sim::Gpu gpu(cfg);
  gpu.begin_copy(0x7f0000000000ull, uint64_t{1} << 40);  // 1 TB: ~10^11 cycles if run out
  const std::clock_t t0 = std::clock();  // CPU time: a loaded machine does not stretch it
  CHECK(!gpu.run_copy(1000));
  CHECK_EQ(gpu.now(), uint64_t{1000});
  CHECK(std::clock() - t0 < 5 * CLOCKS_PER_SEC);
  // A small copy still runs to its end.
  sim::Gpu small(cfg);
  small.begin_copy(0x7f0000000000ull, 4096);
  CHECK(small.run_copy(UINT64_MAX));
  CHECK(small.now() > 0u);
}

TEST_CASE("884-poll-hook-stops-a-run-within-its-interval") {
  config::GpuConfig cfg;
  cfg.memory_model = "detailed";
  // In a copy: the hook asks to stop on its second call.
  sim::Gpu gpu(cfg);
  gpu.begin_copy(0x7f0000000000ull, uint64_t{1} << 40);
  int calls = 0;
  sim::Poller poller([&] { return ++calls >= 2; }, std::chrono::milliseconds(1));
  const std::clock_t t0 = std::clock();
  CHECK(!gpu.run_copy(UINT64_MAX, &poller));
  CHECK(poller.stopped());
  CHECK_EQ(calls, 2);
  CHECK(std::clock() - t0 < 2 * CLOCKS_PER_SEC);
  // In a kernel: partial record, clock where it stopped (not at a budget).
  config::GpuConfig small = small_config();
  sim::Gpu g(small);
  auto src = long_kernel(2000);
  stats::KernelRecord rec;
  g.launch(*src, rec, 0, g.stats()->kernels->add_row());
  sim::Poller stop_now([] { return true; }, std::chrono::milliseconds(0));
  std::vector<stats::KernelRecord*> done;
  CHECK(!g.run_until_kernel_done(UINT64_MAX, done, &stop_now));
  CHECK(stop_now.stopped());
  CHECK(rec.status == stats::KernelStatus::CutOff);
  CHECK(g.now() < UINT64_MAX / 2);
}
