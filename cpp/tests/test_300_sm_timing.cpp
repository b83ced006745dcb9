// 35x: SM pipeline timing properties.
#include "base/error.h"
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;

namespace {
// Runs one block on SM 0 of a 1-SM GPU and returns the issue log.
std::vector<sm::Sm::IssueEvent> run_block(const config::GpuConfig& cfg, const BlockBuilder& b,
                                          stats::KernelRecord* out = nullptr, uint32_t threads = 0) {
  sim::Gpu gpu(cfg);
  std::vector<sm::Sm::IssueEvent> log;
  gpu.sm(0).set_issue_log(&log);
  auto src = kernel(kernel_info(1, threads ? threads : uint32_t(b.warps.size() * 32)), {b.build()});
  stats::KernelRecord rec;
  CHECK(gpu.run_kernel(*src, rec));
  if (out) *out = rec;
  return log;
}
}  // namespace

TEST_CASE("351-dependent-ffma-issues-after-fp32-latency") {
  BlockBuilder b(1);
  b.add(0, ffma(1, {2, 3})).add(0, ffma(4, {1, 3})).add(0, exit_inst());
  auto log = run_block(small_config(), b);
  CHECK_EQ(issue_cycle(log, 0, 16) - issue_cycle(log, 0, 0), 4u);  // sp latency 4
}

TEST_CASE("352-independent-ffma-issues-after-initiation-interval") {
  BlockBuilder b(1);
  b.add(0, ffma(1, {2, 3})).add(0, ffma(4, {5, 3})).add(0, exit_inst());
  auto log = run_block(small_config(), b);
  CHECK_EQ(issue_cycle(log, 0, 16) - issue_cycle(log, 0, 0), 2u);  // sp initiation 2
}

TEST_CASE("353-predicated-off-instruction-still-issues") {
  BlockBuilder b(1);
  b.add(0, iadd(1, {2}, 0)).add(0, iadd(3, {4})).add(0, exit_inst());
  stats::KernelRecord rec;
  auto log = run_block(small_config(), b, &rec);
  CHECK_EQ(rec.sm.warp_insts, 3u);
  CHECK_EQ(rec.sm.thread_insts, 64u);
  CHECK(issue_cycle(log, 0, 0) != UINT64_MAX);
}

TEST_CASE("354-exit-with-partial-masks-completes-the-warp") {
  BlockBuilder b(1);
  b.add(0, iadd(1, {2})).add(0, exit_inst(0x0000ffff)).add(0, iadd(3, {1}, 0xffff0000))
      .add(0, exit_inst(0xffff0000));
  stats::KernelRecord rec;
  run_block(small_config(), b, &rec);
  CHECK_EQ(rec.sm.warp_insts, 4u);
  CHECK_EQ(rec.sm.thread_insts, 32u + 16 + 16 + 16);
}

TEST_CASE("355-barrier-holds-warps-until-all-arrive") {
  BlockBuilder b(2);
  for (int i = 0; i < 6; ++i) b.add(0, ffma(1, {1}));  // warp 0: a 24-cycle dependent chain
  b.add(0, bar()).add(0, iadd(2, {3})).add(0, exit_inst());
  b.add(1, bar()).add(1, iadd(2, {3})).add(1, exit_inst());
  auto log = run_block(small_config(), b);
  uint64_t bar0 = issue_cycle(log, 0, 6 * 16);
  uint64_t after1 = issue_cycle(log, 1, 16);
  CHECK(issue_cycle(log, 1, 0) < bar0);  // warp 1 reached the barrier early...
  CHECK(after1 > bar0);                  // ...and waited for warp 0
}

TEST_CASE("356-scheduler-policies-by-name") {
  config::GpuConfig cfg = small_config();
  for (const char* name : {"lrr", "gto", "two_level"}) {
    cfg.scheduler = name;
    BlockBuilder b(4);
    for (int w = 0; w < 4; ++w) b.add(w, ffma(1, {2})).add(w, ffma(3, {1})).add(w, exit_inst());
    stats::KernelRecord rec;
    run_block(cfg, b, &rec);
    CHECK_EQ(rec.sm.warp_insts, 12u);
  }
  CHECK_THROWS(sm::make_scheduler("fifo", {}), ConfigError);
}

TEST_CASE("357-dual-issue-from-one-warp") {
  config::GpuConfig cfg = small_config();
  cfg.issue_width = 2;
  BlockBuilder b(1);
  b.add(0, ffma(1, {2})).add(0, iadd(3, {4})).add(0, exit_inst());
  auto log = run_block(cfg, b);
  CHECK_EQ(issue_cycle(log, 0, 0), issue_cycle(log, 0, 16));  // sp + int in one cycle
}

TEST_CASE("358-shared-model-units-are-shared-between-schedulers") {
  config::GpuConfig cfg = small_config();
  cfg.sub_core_model = false;
  cfg.exec_units = {{"sp", 1, 4, 4, 32, {"sp"}}};
  BlockBuilder b(2);  // warps 0 and 1 sit on different schedulers but one SP pipeline
  b.add(0, ffma(1, {2})).add(0, exit_inst());
  b.add(1, ffma(1, {2})).add(1, exit_inst());
  auto log = run_block(cfg, b);
  uint64_t a = issue_cycle(log, 0, 0), c = issue_cycle(log, 1, 0);
  CHECK_EQ(a > c ? a - c : c - a, 4u);
}

// PTX-mode records (records="ptx") carry a latency class; the SM times them
// with the config's ptx_latency_* / ptx_initiation_* instead of the unit's.
TEST_CASE("360-ptx-latency-class-sets-latency-and-initiation") {
  config::GpuConfig cfg = small_config();
  cfg.ptx_latency_fp_div = 39;
  cfg.ptx_initiation_fp_div = 7;
  auto div = [](int dst, std::initializer_list<int> srcs) {
    InstRecord in = alu(isa::kUnitSp, dst, srcs);
    in.lat_class = isa::kLatFpDiv;
    return in;
  };
  BlockBuilder dep(1);  // dependent: the second waits for the first's 39-cycle result
  dep.add(0, div(1, {2})).add(0, div(3, {1})).add(0, exit_inst());
  auto log = run_block(cfg, dep);
  CHECK_EQ(issue_cycle(log, 0, 16) - issue_cycle(log, 0, 0), 39u);
  BlockBuilder ind(1);  // independent: the pipeline is busy for the 7-cycle initiation interval
  ind.add(0, div(1, {2})).add(0, div(3, {4})).add(0, exit_inst());
  log = run_block(cfg, ind);
  CHECK_EQ(issue_cycle(log, 0, 16) - issue_cycle(log, 0, 0), 7u);
  BlockBuilder sass(1);  // class 0 (every SASS record): the unit's own sp latency 4
  sass.add(0, ffma(1, {2})).add(0, ffma(3, {1})).add(0, exit_inst());
  log = run_block(cfg, sass);
  CHECK_EQ(issue_cycle(log, 0, 16) - issue_cycle(log, 0, 0), 4u);
}

// SASS records of an opcode with a latency of its own inside its unit
// (HFMA2, MUFU.EX2, ...): the config's sass_latency_* / sass_initiation_*,
// or the unit's own where those are 0.
TEST_CASE("364-sass-latency-class-per-opcode-inside-a-unit") {
  auto with = [](uint8_t cls, int dst, std::initializer_list<int> srcs) {
    InstRecord in = alu(isa::kUnitSp, dst, srcs);
    in.lat_class = cls;
    return in;
  };
  auto dep_gap = [&](const config::GpuConfig& cfg, uint8_t cls) {
    BlockBuilder b(1);
    b.add(0, with(cls, 1, {2})).add(0, with(cls, 3, {1})).add(0, exit_inst());
    auto log = run_block(cfg, b);
    return issue_cycle(log, 0, 16) - issue_cycle(log, 0, 0);
  };
  config::GpuConfig cfg = small_config();
  CHECK_EQ(dep_gap(cfg, isa::kLatHalf), 4u);  // 0: the sp unit's 4 cycles
  cfg.sass_latency_half = 6;
  cfg.sass_latency_mufu_ex2 = 18;
  cfg.sass_initiation_mufu_ex2 = 5;
  CHECK_EQ(dep_gap(cfg, isa::kLatHalf), 6u);
  CHECK_EQ(dep_gap(cfg, isa::kLatMufuEx2), 18u);
  CHECK_EQ(dep_gap(cfg, isa::kLatMufuRcp), 4u);  // not set: the unit's own
  CHECK_EQ(dep_gap(cfg, isa::kLatUnit), 4u);
  BlockBuilder ind(1);  // independent: the pipeline is busy for the 5-cycle initiation
  ind.add(0, with(isa::kLatMufuEx2, 1, {2})).add(0, with(isa::kLatMufuEx2, 3, {4})).add(0, exit_inst());
  auto log = run_block(cfg, ind);
  CHECK_EQ(issue_cycle(log, 0, 16) - issue_cycle(log, 0, 0), 5u);
}

namespace {
// small_config() with the register file timed: `banks` banks per sub-core
// (4 sub-cores), `ports` reads per bank per cycle, `collectors` per sub-core.
config::GpuConfig banked(uint32_t banks, uint32_t ports, uint32_t collectors) {
  config::GpuConfig cfg = small_config();
  cfg.register_bank_conflicts = true;
  cfg.register_banks = 4 * banks;
  cfg.register_port_throughput = ports;
  cfg.operand_collector_units = 4 * collectors;
  return cfg;
}
}  // namespace

TEST_CASE("365-register-bank-conflicts-delay-dispatch") {
  // An FFMA's sources, then a dependent FFMA: the gap is the sp latency (4)
  // plus the cycles the first one's reads took beyond its issue cycle.
  auto dep_gap = [](const config::GpuConfig& cfg, std::initializer_list<int> srcs) {
    BlockBuilder b(1);
    b.add(0, ffma(1, srcs)).add(0, ffma(3, {1})).add(0, exit_inst());
    auto log = run_block(cfg, b);
    return issue_cycle(log, 0, 16) - issue_cycle(log, 0, 0);
  };
  CHECK_EQ(dep_gap(small_config(), {2, 4, 6}), 4u);   // reads untimed (the default)
  CHECK_EQ(dep_gap(banked(2, 1, 2), {2, 4, 6}), 6u);  // three reads of bank 0, one a cycle
  CHECK_EQ(dep_gap(banked(2, 1, 2), {2, 5, 7}), 5u);  // two of bank 1
  CHECK_EQ(dep_gap(banked(2, 1, 2), {2, 5}), 4u);     // one per bank: no conflict
  CHECK_EQ(dep_gap(banked(2, 2, 2), {2, 4, 6}), 5u);  // two ports: three reads in two cycles
  CHECK_EQ(dep_gap(banked(2, 1, 2), {2, 2, 2}), 4u);  // one register is read once
  CHECK_EQ(dep_gap(banked(4, 1, 2), {2, 4, 6}), 5u);  // four banks: 2 and 6 share bank 2
}

TEST_CASE("366-operand-collectors-bound-collecting-instructions-and-share-banks") {
  // FFMA reading bank 0 three times (dispatch 2 cycles after issue), then an
  // independent IADD on the int unit reading `reg`, then a use of its result.
  auto gaps = [](const config::GpuConfig& cfg, int reg) {
    BlockBuilder b(1);
    b.add(0, ffma(1, {2, 4, 6})).add(0, iadd(9, {reg})).add(0, iadd(10, {9})).add(0, exit_inst());
    auto log = run_block(cfg, b);
    uint64_t t0 = issue_cycle(log, 0, 0), t1 = issue_cycle(log, 0, 16), t2 = issue_cycle(log, 0, 32);
    return std::pair<uint64_t, uint64_t>(t1 - t0, t2 - t1);
  };
  // One collector: the IADD waits until the FFMA has dispatched (cycle 2) and
  // freed it (cycle 3).
  CHECK_EQ(gaps(banked(2, 1, 1), 3).first, 3u);
  // Two: it issues next cycle; its bank-1 read is free, so its result comes
  // the int latency (2) after issue.
  auto [issue_gap, use_gap] = gaps(banked(2, 1, 2), 3);
  CHECK_EQ(issue_gap, 1u);
  CHECK_EQ(use_gap, 2u);
  // Reading bank 0, it queues behind the FFMA's three reads (slots 0-2): read
  // in cycle 3, result two cycles after.
  auto [issue_gap0, use_gap0] = gaps(banked(2, 1, 2), 8);
  CHECK_EQ(issue_gap0, 1u);
  CHECK_EQ(use_gap0, 4u);
}

TEST_CASE("367-operand-reuse-caches-serve-the-previous-instructions-sources") {
  // One bank per sub-core, one read a cycle: every read beyond the first
  // costs a cycle. `first`, then `second`, then a use of `second`'s result
  // (R14 = f(R12)); the gap from `second` to the use is the sp latency (4)
  // plus the cycles `second` spent reading (after `between`, if any).
  auto gap = [](bool reuse, InstRecord first, InstRecord second, bool between = false) {
    config::GpuConfig cfg = banked(1, 1, 2);
    cfg.register_reuse_cache = reuse;
    BlockBuilder b(1);
    b.add(0, first);
    if (between) b.add(0, bar());  // issued, but reads no register here
    b.add(0, second).add(0, ffma(14, {12})).add(0, exit_inst());
    auto log = run_block(cfg, b);
    uint32_t pc = between ? 32 : 16;
    return issue_cycle(log, 0, pc + 16) - issue_cycle(log, 0, pc);
  };
  // The same three sources in the same slots: all served by the reuse caches.
  CHECK_EQ(gap(true, ffma(10, {2, 4, 6}), ffma(12, {2, 4, 6})), 4u);
  // Off: three reads in three cycles.
  CHECK_EQ(gap(false, ffma(10, {2, 4, 6}), ffma(12, {2, 4, 6})), 6u);
  // Only the same slot hits: R2 and R4 swapped slots, R6 reused: two reads.
  CHECK_EQ(gap(true, ffma(10, {2, 4, 6}), ffma(12, {4, 2, 6})), 5u);
  // A register the previous instruction wrote is read again (R2), beside the new R8.
  CHECK_EQ(gap(true, ffma(2, {2, 4, 6}), ffma(12, {2, 4, 8})), 5u);
  // Not the next instruction in program order: no reuse.
  CHECK_EQ(gap(true, ffma(10, {2, 4, 6}), ffma(12, {2, 4, 6}), true), 6u);
}
