// 81x: what sampled and split runs rest on: a flushed run is the sum of its
// commands run apart (bit for bit), warm-up is simulated but not counted, a
// command window runs only its commands, and intra-kernel sampling stops a
// steady kernel early and projects it within its bound.
#include <memory>
#include <vector>

#include "sim/simulator.h"
#include "sim/wave_sampler.h"
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;

namespace {

// `ctas` CTAs of one warp: loads of their own lines (and a line every CTA
// shares, so what the caches hold matters), then dependent FFMAs.
std::unique_ptr<sim::KernelSource> work(uint32_t id, uint32_t ctas, int ffmas = 40) {
  std::vector<trace::ThreadBlockTrace> blocks;
  for (uint32_t c = 0; c < ctas; ++c) {
    BlockBuilder b(1);
    b.mem(0, 2, 1, isa::kMemGlobal, isa::kFlagLoad, 4, [](int lane) { return 0x8000 + uint64_t(lane) * 4; });
    for (int i = 0; i < 4; ++i)
      b.mem(0, 3 + i, 1, isa::kMemGlobal, isa::kFlagLoad, 4,
            [c, i](int lane) { return 0x100000 + (uint64_t(c) * 4 + uint64_t(i)) * 128 + uint64_t(lane) * 4; });
    for (int i = 0; i < ffmas; ++i) b.add(0, ffma(1, {1, 2 + i % 5}));
    b.add(0, exit_inst());
    blocks.push_back(b.build());
  }
  trace::KernelInfo info = kernel_info(ctas, 32);
  info.id = id;
  return kernel(info, std::move(blocks));
}

config::GpuConfig detailed(int sms) {
  config::GpuConfig cfg = small_config(sms);
  cfg.memory_model = "detailed";
  cfg.kernel_launch_latency = 100;
  return cfg;
}

sim::RunResult run(const config::GpuConfig& cfg, const sim::RunOptions& opts, uint32_t ctas = 6) {
  std::vector<std::unique_ptr<sim::KernelSource>> ks;
  for (uint32_t k = 1; k <= 4; ++k) ks.push_back(work(k, ctas));
  sim::Simulator s(cfg, ACCELSIM_SOURCE_DIR "/configs/isa");
  return s.run(ks, opts);
}

uint64_t family_total(const sim::RunResult& r, const char* name) {
  uint64_t n = 0;
  for (uint64_t v : r.stats->registry.find(name)->values()) n += v;
  return n;
}

}  // namespace

TEST_CASE("811-flushed-run-is-the-sum-of-its-commands-run-apart") {
  sim::RunOptions all;
  all.flush = true;
  sim::RunResult whole = run(detailed(2), all);
  uint64_t clock = 0, l2 = 0;
  for (size_t i = 0; i < 4; ++i) {
    sim::RunOptions one = all;
    one.first_command = i;
    one.end_command = i + 1;
    sim::RunResult part = run(detailed(2), one);
    CHECK_EQ(part.kernels.size(), size_t(1));
    CHECK_EQ(part.kernels[0].cycles(), whole.kernels[i].cycles());
    CHECK_EQ(part.kernels[0].launch_cycle + clock, whole.kernels[i].launch_cycle);
    CHECK_EQ(part.kernels[0].sm.warp_insts, whole.kernels[i].sm.warp_insts);
    clock += part.total_cycles;
    l2 += family_total(part, "l2.accesses");
  }
  CHECK_EQ(clock, whole.total_cycles);
  CHECK_EQ(l2, family_total(whole, "l2.accesses"));
  // Without the flush, the shared line stays in L2: kernels after the first are faster.
  sim::RunResult warm = run(detailed(2), sim::RunOptions{});
  CHECK(warm.kernels[3].cycles() < whole.kernels[3].cycles());
}

TEST_CASE("812-warm-up-kernels-run-but-are-not-counted") {
  sim::RunOptions opts;
  opts.kernels = {4};
  opts.warmup = {2};  // command positions: the third kernel warms the fourth
  sim::RunResult r = run(detailed(2), opts);
  CHECK(r.kernels[0].status == stats::KernelStatus::NotSelected);
  CHECK(r.kernels[2].status == stats::KernelStatus::Warmup);
  CHECK(r.kernels[3].status == stats::KernelStatus::Simulated);
  CHECK(r.kernels[3].launch_cycle >= r.kernels[2].end_cycle);  // warm-up never overlaps
  // Counts: the fourth kernel's alone.
  const uint64_t insts = r.kernels[3].sm.warp_insts;
  uint64_t counted = 0;
  const auto& ev = *r.stats->registry.find("sm.events");
  for (size_t i = 0; i < ev.size(); i += stats::kSmCounterFields) counted += ev.values()[i];
  CHECK_EQ(counted, insts);
  // The warmed kernel finds the shared line in L2: fewer misses than cold.
  sim::RunOptions cold;
  cold.kernels = {4};
  sim::RunResult c = run(detailed(2), cold);
  CHECK(r.kernels[3].l2_read_misses < c.kernels[3].l2_read_misses);
}

TEST_CASE("813-window-runs-only-its-commands-and-count-from-warms") {
  sim::RunOptions opts;
  opts.first_command = 1;
  opts.count_from = 2;
  opts.end_command = 3;
  sim::RunResult r = run(detailed(2), opts);
  CHECK_EQ(r.kernels.size(), size_t(2));
  CHECK_EQ(r.kernels[0].id, 2u);
  CHECK(r.kernels[0].status == stats::KernelStatus::Warmup);
  CHECK(r.kernels[1].status == stats::KernelStatus::Simulated);
  CHECK_EQ(r.stats->kernels->rows(), size_t(2));
}

TEST_CASE("814-intra-sampling-stops-a-steady-kernel-and-projects-it") {
  config::GpuConfig cfg = detailed(2);
  sim::RunOptions full_opts;
  const uint32_t ctas = 2 * 32 * 24;  // 24 waves of 32 one-warp CTAs per SM on 2 SMs
  std::vector<std::unique_ptr<sim::KernelSource>> a;
  a.push_back(work(1, ctas, 100));
  sim::Simulator s(cfg, ACCELSIM_SOURCE_DIR "/configs/isa");
  sim::RunResult full = s.run(a, full_opts);
  sim::RunOptions opts;
  opts.intra.enabled = true;
  opts.intra.tolerance = 0.03;
  std::vector<std::unique_ptr<sim::KernelSource>> b;
  b.push_back(work(1, ctas, 100));
  sim::RunResult sampled = s.run(b, opts);
  const stats::KernelRecord& k = sampled.kernels[0];
  CHECK(k.status == stats::KernelStatus::Sampled);
  CHECK(k.simulated_ctas < ctas * 3 / 4);
  CHECK(k.simulated_end_cycle < k.end_cycle);
  CHECK_EQ(sampled.total_cycles, k.end_cycle);  // the clock went on to the projected end
  const double err = double(k.cycles()) - double(full.kernels[0].cycles());
  CHECK(std::abs(err) <= double(k.cycles_bound) + 1);
  CHECK(std::abs(err) < 0.03 * double(full.kernels[0].cycles()));
}

TEST_CASE("815-intra-sampling-leaves-short-kernels-and-a-wave-is-what-fits") {
  sim::IntraSampling opts;
  opts.enabled = true;
  CHECK(!sim::WaveSampler::worth_it(opts, 16, 16 * 7));  // fewer waves than min_waves
  CHECK(sim::WaveSampler::worth_it(opts, 16, 16 * 10));  // 2 windows of 4 after the first, and one more
  CHECK(!sim::WaveSampler::worth_it(opts, 0, 1000));     // nothing fits: no waves
  // Steady waves of 100 cycles: after the window the sampler says stop, and
  // the projection adds the waves never dispatched at 100 cycles each.
  sim::WaveSampler w(opts, 10, 200, sim::WaveCounts{});
  bool stop = false;
  uint64_t waves = 0;
  while (!stop) {
    ++waves;
    sim::WaveCounts at{waves * 100, waves * 1000, waves * 50, waves * 20};
    stop = w.observe(at, waves * 10 + 10);
  }
  CHECK_EQ(waves, uint64_t(2 * opts.window + 1));
  const sim::Projection p = w.project(waves * 10 + 10, waves * 100 + 150);
  CHECK_EQ(p.end_cycle, waves * 100 + 150 + (200 - waves * 10 - 10) / 10 * 100);
  CHECK_EQ(p.bound, uint64_t(0));  // no spread between waves
}

TEST_CASE("816-a-replayed-kernel-warms-l2-without-time-or-counts") {
  sim::RunOptions replayed;
  replayed.kernels = {4};
  replayed.replay = {2};  // the third kernel's accesses go into L2, unsimulated
  sim::RunResult r = run(detailed(2), replayed);
  CHECK(r.kernels[2].status == stats::KernelStatus::Warmup);
  CHECK(r.kernels[2].skipped);
  CHECK_EQ(r.kernels[2].cycles(), uint64_t(0));
  CHECK_EQ(r.kernels[2].sm.warp_insts, uint64_t(0));
  sim::RunOptions simulated;
  simulated.kernels = {4};
  simulated.warmup = {2};
  sim::RunResult s = run(detailed(2), simulated);
  sim::RunOptions cold;
  cold.kernels = {4};
  sim::RunResult c = run(detailed(2), cold);
  // The replay leaves what the simulated warm-up leaves: the fourth kernel
  // finds its lines in L2 either way, and misses them cold.
  CHECK_EQ(r.kernels[3].l2_read_misses, s.kernels[3].l2_read_misses);
  CHECK(r.kernels[3].l2_read_misses < c.kernels[3].l2_read_misses);
  // Nothing of the replay is counted: the families hold the fourth kernel alone.
  CHECK_EQ(family_total(r, "sm.insts"), r.kernels[3].sm.warp_insts);
  CHECK(r.total_cycles < s.total_cycles);  // and it took no time
}
