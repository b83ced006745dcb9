// 85x: GPU level: occupancy, CTA dispatch, kernels in order, watchdog.
#include <string>

#include "base/error.h"
#include "sim/occupancy.h"
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;

TEST_CASE("851-occupancy-limited-by-registers") {
  config::GpuConfig cfg;
  auto o = sim::compute_occupancy(sim::occupancy_params(cfg), kernel_info(100, 256, 64));  // 64 regs x 256 threads
  CHECK_EQ(o.registers_per_cta, 16384u);
  CHECK_EQ(o.ctas_per_sm, 4u);
  CHECK_EQ(std::string(o.limiter), std::string("registers"));
  auto g = sim::compute_occupancy(sim::occupancy_params(cfg), kernel_info(100, 256, 33));  // rounded up per warp
  CHECK_EQ(g.registers_per_cta, 8u * 1280);
}

TEST_CASE("852-occupancy-limited-by-shared-memory") {
  config::GpuConfig cfg;
  auto o = sim::compute_occupancy(sim::occupancy_params(cfg), kernel_info(100, 64, 16, 40000));
  CHECK_EQ(o.ctas_per_sm, 2u);  // 96 KiB carve-out / 40000 B
  CHECK_EQ(std::string(o.limiter), std::string("shmem"));
  CHECK_EQ(o.shmem_carveout, 98304u);
  CHECK_THROWS(sim::compute_occupancy(sim::occupancy_params(cfg), kernel_info(1, 64, 16, 70000)), ConfigError);
}

TEST_CASE("853-ctas-wait-for-room-under-occupancy-limit") {
  config::GpuConfig cfg = small_config();
  std::vector<trace::ThreadBlockTrace> blocks;
  BlockBuilder b(1);
  for (int i = 0; i < 8; ++i) b.add(0, ffma(1, {1}));  // latency bound
  b.add(0, exit_inst());
  for (int i = 0; i < 8; ++i) blocks.push_back(b.build());
  auto few = kernel(kernel_info(8, 32, 16, 40000), blocks);  // 2 CTAs per SM by shared memory
  auto all = kernel(kernel_info(8, 32, 16, 0), blocks);      // all 8 fit
  sim::Gpu g1(cfg), g2(cfg);
  stats::KernelRecord r1, r2;
  g1.run_kernel(*few, r1);
  g2.run_kernel(*all, r2);
  CHECK_EQ(r1.ctas_per_sm, 2u);
  CHECK_EQ(r1.sm.warp_insts, r2.sm.warp_insts);
  CHECK(r1.cycles() >= 3 * r2.cycles());  // four waves instead of one (r2 staggers by dispatch)
}

TEST_CASE("854-launch-latency-and-kernels-in-order") {
  config::GpuConfig cfg = small_config(4);
  cfg.kernel_launch_latency = 100;
  BlockBuilder b(1);
  b.add(0, iadd(1, {2})).add(0, exit_inst());
  sim::Gpu gpu(cfg);
  stats::KernelRecord a, c;
  auto k1 = kernel(kernel_info(1, 32), {b.build()});
  auto k2 = kernel(kernel_info(1, 32), {b.build()});
  gpu.run_kernel(*k1, a);
  gpu.run_kernel(*k2, c);
  CHECK(a.cycles() >= 100u);
  CHECK_EQ(c.launch_cycle, a.end_cycle);
  CHECK_EQ(c.cycles(), a.cycles());
}

namespace {
// A level below L1 that accepts requests and never answers.
class BlackHole : public MemPort {
 public:
  void connect(uint16_t, ResponseQueue*) override {}
  bool send(const MemRequest&, uint64_t) override { ++sent; return true; }
  uint64_t outstanding() const override { return sent; }
  uint64_t sent = 0;
};
}  // namespace

TEST_CASE("855-watchdog-names-the-stuck-component") {
  config::GpuConfig cfg = small_config();
  cfg.deadlock_cycles = 1000;
  sim::Gpu gpu(cfg, std::make_unique<BlackHole>());
  auto src = load_then_use();
  std::string msg = deadlock_message(gpu, *src);
  CHECK(msg.find("deadlock") != std::string::npos);
  CHECK(msg.find("sm[0]") != std::string::npos);
  CHECK(msg.find("waiting on registers") != std::string::npos);
  CHECK(msg.find("ldst") != std::string::npos);
}

TEST_CASE("856-idle-gpu-jumps-ahead") {
  // A single warp on an 80-SM GPU with a long dependent memory chain: the loop
  // must skip the waiting cycles, so the run is fast and exact.
  config::GpuConfig cfg;
  cfg.kernel_launch_latency = 5000;
  BlockBuilder b(1);
  for (int i = 0; i < 50; ++i)
    b.mem(0, 1, 1, isa::kMemGlobal, isa::kFlagLoad | isa::kFlagBypassL1, 8,
          [i](int) { return uint64_t(i) * 4096; }, 1u);
  b.add(0, exit_inst(1u));
  sim::Gpu gpu(cfg);
  auto src = kernel(kernel_info(1, 1), {b.build()});
  stats::KernelRecord rec;
  gpu.run_kernel(*src, rec);
  CHECK(rec.cycles() >= 5000u + 50u * uint64_t(cfg.dram_latency));
  CHECK_EQ(rec.sm.warp_insts, 51u);
  // 79 SMs never ticked; the busy one only around its events (not per cycle).
  CHECK(rec.sm.ticks < rec.cycles() / 20);
}

TEST_CASE("857-cta-launch-latency-delays-the-first-issue") {
  BlockBuilder b(1);
  b.add(0, iadd(1, {2})).add(0, exit_inst());
  config::GpuConfig cfg = small_config();
  stats::KernelRecord r0, r1;
  {
    sim::Gpu gpu(cfg);
    auto src = kernel(kernel_info(1, 32), {b.build()});
    gpu.run_kernel(*src, r0);
  }
  cfg.cta_launch_latency = 50;
  sim::Gpu gpu(cfg);
  auto src = kernel(kernel_info(1, 32), {b.build()});
  gpu.run_kernel(*src, r1);
  CHECK_EQ(r1.cycles() - r0.cycles(), 50u - 1);  // the first fetch already takes a cycle
}
