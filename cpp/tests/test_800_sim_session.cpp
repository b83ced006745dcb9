// 89x: one GPU kept across runs (GpuSession, a PTX-mode Device): the second
// run starts where the first stopped and reports only itself.
#include <memory>
#include <numeric>
#include <vector>

#include "sim/gpu_session.h"
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;

namespace {

// One CTA of 4 warps, each loading 8 lines (bypassing L1): 128 sectors' worth
// of lines from `base`, all of which fit in L2.
sim::Workload loads(uint64_t base) {
  BlockBuilder b(4);
  for (int w = 0; w < 4; ++w) {
    for (int i = 0; i < 8; ++i)
      b.mem(w, 1 + i, 10, isa::kMemGlobal, isa::kFlagLoad | isa::kFlagBypassL1, 4,
            [=](int lane) { return base + uint64_t(w * 8 + i) * 128 + uint64_t(lane) * 4; });
    b.add(w, iadd(20, {1})).add(w, exit_inst());
  }
  std::vector<std::unique_ptr<sim::KernelSource>> ks;
  ks.push_back(kernel(kernel_info(1, 128), {b.build()}));
  return sim::workload_from_sources(ks);
}

uint64_t family_total(const stats::RunStats& s, const char* name) {
  std::span<const uint64_t> v = s.registry.find(name)->values();
  return std::accumulate(v.begin(), v.end(), uint64_t{0});
}

}  // namespace

TEST_CASE("891-session-second-run-finds-the-first-runs-data-in-l2") {
  config::GpuConfig cfg = small_config();
  cfg.memory_model = "detailed";
  sim::GpuSession session(cfg);
  const uint64_t base = 0x7f4a3c000000ull;
  sim::RunResult first = session.run(loads(base));
  const uint64_t t1 = session.now();
  CHECK_EQ(first.total_cycles, t1);
  CHECK_EQ(first.kernels.at(0).dram_reads, 128u);
  sim::RunResult second = session.run(loads(base));
  CHECK_EQ(second.kernels.at(0).dram_reads, 0u);  // warm L2
  CHECK_EQ(second.kernels.at(0).l2_read_hits, 128u);
  CHECK(second.kernels.at(0).launch_cycle >= t1);  // the clock went on
  CHECK_EQ(second.total_cycles, session.now() - t1);
  CHECK(second.total_cycles < first.total_cycles);
  // Statistics of its own: one kernel row, no DRAM reads counted.
  CHECK_EQ(second.stats->kernels->rows(), 1u);
  CHECK(family_total(*first.stats, "dram.ops") > 0);
  CHECK_EQ(family_total(*second.stats, "dram.ops"), 0u);
  CHECK_EQ(session.resets(), 0u);
  // The same kernel on a fresh GPU behaves as the first run did.
  sim::GpuSession fresh(cfg);
  CHECK_EQ(fresh.run(loads(base)).total_cycles, first.total_cycles);
}

TEST_CASE("892-session-run-cut-short-starts-the-next-on-a-fresh-gpu") {
  config::GpuConfig cfg = small_config();
  cfg.memory_model = "detailed";
  sim::GpuSession session(cfg);
  const uint64_t base = 0x7f4a3c000000ull;
  sim::RunOptions tiny;
  tiny.max_cycles = 10;
  CHECK(!session.run(loads(base), tiny).completed);
  CHECK_EQ(session.resets(), 1u);
  CHECK_EQ(session.now(), 0u);
  sim::RunResult again = session.run(loads(base));
  CHECK(again.completed);
  CHECK_EQ(again.kernels.at(0).dram_reads, 128u);
}

TEST_CASE("894-session-window-since-mark-covers-every-run-after-it") {
  config::GpuConfig cfg = small_config();
  cfg.memory_model = "detailed";
  sim::GpuSession session(cfg);
  const uint64_t base = 0x7f4a3c000000ull;
  session.run(loads(base));
  session.mark();  // the window opens after the first run
  sim::RunResult a = session.run(loads(base + (1 << 20)));
  sim::RunResult b = session.run(loads(base + (2 << 20)));
  auto window = session.stats_since_mark();
  CHECK_EQ(window->kernels->rows(), 2u);
  CHECK_EQ(family_total(*window, "dram.ops"), family_total(*a.stats, "dram.ops") + family_total(*b.stats, "dram.ops"));
  CHECK(family_total(*window, "dram.ops") > 0);
  session.mark();
  CHECK_EQ(session.stats_since_mark()->kernels->rows(), 0u);
}

TEST_CASE("895-session-cut-run-keeps-the-window-it-ended") {
  config::GpuConfig cfg = small_config();
  cfg.memory_model = "detailed";
  sim::GpuSession session(cfg);
  const uint64_t base = 0x7f4a3c000000ull;
  session.mark();
  session.run(loads(base));
  sim::RunOptions tiny;
  tiny.max_cycles = 10;
  CHECK(!session.run(loads(base + (1 << 20)), tiny).completed);
  CHECK_EQ(session.resets(), 1u);  // a fresh GPU, but the ended window's totals stay readable
  CHECK_EQ(session.stats_since_mark()->kernels->rows(), 2u);
  session.mark();  // on the fresh GPU
  session.run(loads(base));
  CHECK_EQ(session.stats_since_mark()->kernels->rows(), 1u);
}

TEST_CASE("896-session-flush-caches-starts-each-kernel-with-an-empty-l2") {
  config::GpuConfig cfg = small_config();
  cfg.memory_model = "detailed";
  sim::GpuSession session(cfg);
  const uint64_t base = 0x7f4a3c000000ull;
  sim::RunOptions flush;
  flush.flush_caches = true;
  sim::RunResult first = session.run(loads(base), flush);
  sim::RunResult second = session.run(loads(base), flush);  // what the first brought in is gone
  CHECK_EQ(first.kernels.at(0).dram_reads, 128u);
  CHECK_EQ(second.kernels.at(0).dram_reads, 128u);
  CHECK_EQ(session.run(loads(base)).kernels.at(0).dram_reads, 0u);  // without: all L2 hits
}
