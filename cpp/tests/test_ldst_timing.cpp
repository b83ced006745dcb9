// 30x: LD/ST unit timing properties.
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;

namespace {
std::vector<sm::Sm::IssueEvent> run_block(const config::GpuConfig& cfg, const BlockBuilder& b,
                                          stats::KernelRecord* out = nullptr) {
  sim::Gpu gpu(cfg);
  std::vector<sm::Sm::IssueEvent> log;
  gpu.sm(0).set_issue_log(&log);
  auto src = kernel(kernel_info(1, uint32_t(b.warps.size() * 32)), {b.build()});
  stats::KernelRecord rec;
  CHECK(gpu.run_kernel(*src, rec));
  if (out) *out = rec;
  return log;
}
auto unit_stride(uint64_t base) {
  return [base](int lane) { return base + uint64_t(lane) * 4; };
}
}  // namespace

TEST_CASE("301-l1-hit-returns-after-hit-latency") {
  config::GpuConfig cfg = small_config();
  BlockBuilder b(1);
  b.mem(0, 1, 10, isa::kMemGlobal, isa::kFlagLoad, 4, unit_stride(0x1000));  // pc 0: miss
  b.add(0, iadd(2, {1}));                                                          // pc 16
  b.mem(0, 3, 10, isa::kMemGlobal, isa::kFlagLoad, 4, unit_stride(0x1000));  // pc 32: hit
  b.add(0, iadd(4, {3}));                                                          // pc 48
  b.add(0, exit_inst());
  stats::KernelRecord rec;
  auto log = run_block(cfg, b, &rec);
  CHECK_EQ(issue_cycle(log, 0, 48) - issue_cycle(log, 0, 32), uint64_t(cfg.l1d_hit_latency));
  CHECK(issue_cycle(log, 0, 16) - issue_cycle(log, 0, 0) >= uint64_t(cfg.dram_latency));
  CHECK_EQ(rec.sm.l1d_hits, 4u);
  CHECK_EQ(rec.sm.l1d_misses, 4u);
}

TEST_CASE("302-shared-8-way-bank-conflict-takes-8-cycles") {
  config::GpuConfig cfg = small_config();
  // Lanes 4 apart share a bank with different words: 8 distinct words per bank.
  auto conflict8 = [](int lane) { return uint64_t(lane % 4) * 4 + uint64_t(lane / 4) * 128; };
  auto no_conflict = [](int lane) { return uint64_t(lane) * 4; };
  for (int conflicted = 0; conflicted < 2; ++conflicted) {
    BlockBuilder b(1);
    if (conflicted)
      b.mem(0, 1, 10, isa::kMemShared, isa::kFlagLoad, 4, conflict8);
    else
      b.mem(0, 1, 10, isa::kMemShared, isa::kFlagLoad, 4, no_conflict);
    b.add(0, iadd(2, {1})).add(0, exit_inst());
    stats::KernelRecord rec;
    auto log = run_block(cfg, b, &rec);
    uint64_t lat = issue_cycle(log, 0, 16) - issue_cycle(log, 0, 0);
    CHECK_EQ(rec.sm.shmem_bank_cycles, conflicted ? 8u : 1u);
    CHECK_EQ(lat, uint64_t(cfg.shmem_latency) + (conflicted ? 7 : 0));
  }
}

TEST_CASE("303-shared-conflicts-occupy-the-pipeline") {
  config::GpuConfig cfg = small_config();
  auto conflict8 = [](int lane) { return uint64_t(lane % 4) * 4 + uint64_t(lane / 4) * 128; };
  BlockBuilder b(1);
  b.mem(0, 1, 10, isa::kMemShared, isa::kFlagLoad, 4, conflict8);
  b.mem(0, 2, 10, isa::kMemShared, isa::kFlagLoad, 4, conflict8);
  b.add(0, iadd(3, {2})).add(0, exit_inst());
  auto log = run_block(cfg, b);
  // The second access starts 8 cycles after the first: its result is 8 later.
  uint64_t lat2 = issue_cycle(log, 0, 32) - issue_cycle(log, 0, 16);
  CHECK(lat2 >= uint64_t(cfg.shmem_latency) + 7 + 8 - 2);
}

TEST_CASE("304-bypass-l1-goes-below") {
  config::GpuConfig cfg = small_config();
  BlockBuilder b(1);
  for (int i = 0; i < 2; ++i)
    b.mem(0, 1 + i, 10, isa::kMemGlobal, isa::kFlagLoad | isa::kFlagBypassL1, 4,
          unit_stride(0x2000));
  b.add(0, iadd(5, {2})).add(0, exit_inst());
  stats::KernelRecord rec;
  run_block(cfg, b, &rec);
  CHECK_EQ(rec.sm.l1d_hits, 0u);
  CHECK_EQ(rec.sm.l1d_bypass, 8u);
}

TEST_CASE("305-stores-write-through-and-finish") {
  config::GpuConfig cfg = small_config();
  BlockBuilder b(1);
  b.mem(0, -1, 10, isa::kMemGlobal, isa::kFlagStore, 4, unit_stride(0x3000));
  b.add(0, exit_inst());
  stats::KernelRecord rec;
  run_block(cfg, b, &rec);
  CHECK_EQ(rec.sm.l1d_writes, 4u);
  CHECK_EQ(rec.l2_writes, 4u);
  CHECK(rec.cycles() >= uint64_t(cfg.l2_hit_latency));  // the warp waits for the acks
}

TEST_CASE("306-adaptive-split-gives-l1d-all-sram-without-shmem") {
  config::GpuConfig cfg = small_config();
  sim::Gpu gpu(cfg);
  BlockBuilder b(1);
  b.add(0, exit_inst());
  auto src = kernel(kernel_info(1, 32), {b.build()});
  stats::KernelRecord rec;
  gpu.run_kernel(*src, rec);
  CHECK_EQ(rec.l1d_size, uint64_t(cfg.unified_l1_shmem_size));
  auto src2 = kernel(kernel_info(1, 32, 16, 20000), {b.build()});
  gpu.run_kernel(*src2, rec);
  CHECK_EQ(rec.l1d_size, uint64_t(cfg.unified_l1_shmem_size - 98304));  // 4 CTAs x 20000 B -> 96 KiB
}

TEST_CASE("307-constant-cache-miss-then-hit") {
  config::GpuConfig cfg = small_config();
  cfg.perfect_inst_const_cache = false;
  BlockBuilder b(1);
  auto same = [](int) { return uint64_t(0x400); };
  b.mem(0, 1, 10, isa::kMemConst, isa::kFlagLoad, 4, same);  // pc 0: miss
  b.add(0, iadd(2, {1}));                                         // pc 16
  b.mem(0, 3, 10, isa::kMemConst, isa::kFlagLoad, 4, same);  // pc 32: hit
  b.add(0, iadd(4, {3}));                                         // pc 48
  b.add(0, exit_inst());
  auto log = run_block(cfg, b);
  CHECK_EQ(issue_cycle(log, 0, 48) - issue_cycle(log, 0, 32), uint64_t(cfg.l1c_hit_latency));
  CHECK_EQ(issue_cycle(log, 0, 16) - issue_cycle(log, 0, 0),
           uint64_t(cfg.l1c_hit_latency + cfg.l2_hit_latency));
}
