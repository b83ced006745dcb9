// 71x: streams end to end in C++: overlap, per-stream order, the launch
// window, SM sharing, kernel selection, and per-stream counters.
#include <memory>
#include <vector>

#include "sim/simulator.h"
#include "cache/cache_types.h"
#include "stats/counter_reduce.h"
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;

namespace {

// A one-CTA kernel of `n` dependent FFMAs (latency bound) on `stream`.
std::unique_ptr<sim::KernelSource> chain(uint32_t id, uint64_t stream, int n, int threads = 32) {
  BlockBuilder b(threads / 32);
  for (int w = 0; w < threads / 32; ++w) {
    for (int i = 0; i < n; ++i) b.add(w, ffma(1, {1}));
    b.add(w, exit_inst());
  }
  trace::KernelInfo info = kernel_info(1, uint32_t(threads));
  info.id = id;
  info.stream = stream;
  return kernel(info, {b.build()});
}

sim::RunResult run(const config::GpuConfig& cfg, std::vector<std::unique_ptr<sim::KernelSource>> ks,
                   std::vector<uint32_t> selected = {}) {
  sim::Simulator s(cfg, ACCELSIM_SOURCE_DIR "/configs/isa");
  sim::RunOptions opts;
  opts.kernels = std::move(selected);
  return s.run(ks, opts);
}

std::vector<std::unique_ptr<sim::KernelSource>> kernels(
    std::initializer_list<std::unique_ptr<sim::KernelSource>*> list) {
  std::vector<std::unique_ptr<sim::KernelSource>> out;
  for (auto* k : list) out.push_back(std::move(*k));
  return out;
}

// Both had CTAs on SMs at some cycle.
bool overlap(const stats::KernelRecord& a, const stats::KernelRecord& b) {
  return a.first_cta_cycle < b.end_cycle && b.first_cta_cycle < a.end_cycle;
}

}  // namespace

TEST_CASE("710-different-streams-overlap-same-stream-in-order") {
  auto a = chain(1, 7, 40), b = chain(2, 7, 40), c = chain(3, 9, 40);
  sim::RunResult r = run(small_config(4), kernels({&a, &b, &c}));
  CHECK_EQ(r.kernels.size(), size_t(3));
  CHECK(r.kernels[1].start_cycle >= r.kernels[0].end_cycle);  // stream 7 in order
  CHECK(overlap(r.kernels[0], r.kernels[2]));                 // stream 9 beside it
  CHECK_EQ(r.stats->registry.stream_ids()[0], uint64_t(7));
  CHECK_EQ(r.kernels[2].stream_slot, 1u);
}

TEST_CASE("711-launch-window-of-one-serializes-streams") {
  config::GpuConfig cfg = small_config(4);
  cfg.max_concurrent_kernels = 1;
  auto a = chain(1, 7, 40), c = chain(2, 9, 40);
  sim::RunResult r = run(cfg, kernels({&a, &c}));
  CHECK(r.kernels[1].start_cycle >= r.kernels[0].end_cycle);
}

TEST_CASE("712-one-sm-shared-only-when-the-config-allows") {
  config::GpuConfig cfg = small_config(1);
  auto a = chain(1, 7, 40), c = chain(2, 9, 40);
  sim::RunResult apart = run(cfg, kernels({&a, &c}));
  CHECK(!overlap(apart.kernels[0], apart.kernels[1]));  // the SM takes one kernel at a time
  cfg.concurrent_kernels_per_sm = true;
  auto a2 = chain(1, 7, 40), c2 = chain(2, 9, 40);
  sim::RunResult shared = run(cfg, kernels({&a2, &c2}));
  CHECK(overlap(shared.kernels[0], shared.kernels[1]));
  CHECK(shared.total_cycles < apart.total_cycles);
}

TEST_CASE("713-per-stream-counters-exact-and-summing-to-totals") {
  auto a = chain(1, 7, 30), c = chain(2, 9, 50, 64);
  sim::RunResult r = run(small_config(2), kernels({&a, &c}));
  const stats::CounterFamily& ev = *r.stats->registry.find("sm.events");
  std::vector<uint64_t> per = stats::reduce_per_stream(ev, ev.values(), 2);
  const size_t w = stats::kSmCounterFields;  // warp_insts is the first event
  CHECK_EQ(per[0 * w], uint64_t(31));        // 30 FFMA + EXIT, one warp
  CHECK_EQ(per[1 * w], uint64_t(2 * 51));    // two warps
  CHECK_EQ(r.kernels[0].sm.warp_insts, uint64_t(31));
  CHECK_EQ(r.kernels[1].sm.warp_insts, uint64_t(102));
  std::vector<uint64_t> all = stats::reduce_to_categories(ev, ev.values(), stats::kAllStreams);
  CHECK_EQ(all[0], per[0] + per[w]);
  const stats::CounterFamily& insts = *r.stats->registry.find("sm.insts");
  std::vector<uint64_t> cls = stats::reduce_to_categories(insts, insts.values(), 1);
  CHECK_EQ(cls[isa::kUnitSp], uint64_t(100));
  CHECK_EQ(cls[isa::kUnitExit], uint64_t(2));
}

TEST_CASE("714-kernel-selection-skips-the-others") {
  auto a = chain(1, 7, 30), b = chain(2, 7, 30), c = chain(3, 9, 30);
  sim::RunResult r = run(small_config(2), kernels({&a, &b, &c}), {2});
  CHECK_EQ(r.kernels.size(), size_t(3));
  CHECK(r.kernels[0].skipped && !r.kernels[1].skipped && r.kernels[2].skipped);
  CHECK_EQ(r.kernels[0].sm.warp_insts, uint64_t(0));
  CHECK_EQ(r.kernels[1].sm.warp_insts, uint64_t(31));
  CHECK_EQ(r.stats->kernels->rows(), size_t(3));
}

namespace {

// One warp loading `n` distinct 128 B lines (4 sectors each), dependent on
// nothing: the loads are in flight together.
std::unique_ptr<sim::KernelSource> loads(uint32_t id, uint64_t stream, int n) {
  BlockBuilder b(1);
  for (int i = 0; i < n; ++i)
    b.mem(0, 2 + i % 8, 1, isa::kMemGlobal, isa::kFlagLoad, 4,
          [i](int lane) { return 0x10000 + uint64_t(i) * 4096 + uint64_t(lane) * 4; });
  b.add(0, exit_inst());
  trace::KernelInfo info = kernel_info(1, 32);
  info.id = id;
  info.stream = stream;
  return kernel(info, {b.build()});
}

}  // namespace

TEST_CASE("715-two-streams-on-one-l1d-each-count-their-own-accesses") {
  // Both kernels share the SM and the same lines in the same cycles: each
  // stream's L1D accesses are exactly its own, whatever the outcome.
  config::GpuConfig cfg = small_config(1);
  cfg.concurrent_kernels_per_sm = true;
  auto a = loads(1, 7, 12), c = loads(2, 9, 12);
  sim::RunResult r = run(cfg, kernels({&a, &c}));
  CHECK(overlap(r.kernels[0], r.kernels[1]));
  const stats::CounterFamily& l1d = *r.stats->registry.find("l1d.accesses");
  std::vector<uint64_t> per = stats::reduce_per_stream(l1d, l1d.values(), 2);
  // GLOBAL_R is access type 0: a stream's first kOutcomes cells.
  for (size_t s = 0; s < 2; ++s) {
    uint64_t looked_up = 0;
    for (int o = 0; o < cache::kOutcomes; ++o)
      if (o != int(cache::Outcome::RESERVATION_FAIL)) looked_up += per[s * per.size() / 2 + o];
    CHECK_EQ(looked_up, uint64_t(12 * 4));
  }
  // The second stream found the first one's fetches in flight or done.
  uint64_t second_merged = per[per.size() / 2 + size_t(cache::Outcome::MSHR_HIT)] +
                           per[per.size() / 2 + size_t(cache::Outcome::HIT_RESERVED)] +
                           per[per.size() / 2 + size_t(cache::Outcome::HIT)];
  CHECK(second_merged > 0);
}
