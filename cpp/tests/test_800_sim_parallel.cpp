// 87x: the parallel SM phase: the worker pool runs every index once per phase
// and passes exceptions on; a GPU on 2 or 3 threads gives the single-threaded
// result; an admission contract the level below breaks is an error, never a
// silently different result; read-ahead decoding keeps blocks and errors in
// order; `threads: 0` keeps the parallel phase only while it is measured
// faster, and counts the cores other work keeps busy.
#include <atomic>
#include <cstring>
#include <vector>

#include "base/error.h"
#include "sim/parallel_sms.h"
#include "sim/read_ahead_source.h"
#include "sim/thread_backoff.h"
#include "sim/worker_pool.h"
#include "tests/fixed_latency_port.h"
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;

namespace {
struct Hits {
  std::vector<std::atomic<uint32_t>> count = std::vector<std::atomic<uint32_t>>(1000);
  static void task(void* ctx, size_t i) { ++static_cast<Hits*>(ctx)->count[i]; }
  static void thrower(void*, size_t i) {
    if (i == 7) throw Error("task 7 failed");
  }
};

// A load-heavy kernel over many SMs; returns the cycle count and SM counters.
std::pair<uint64_t, stats::SmCounters> run_loads(const char* model, int64_t threads) {
  config::GpuConfig cfg = small_config(16);
  cfg.memory_model = model;
  cfg.threads = threads;
  std::vector<trace::ThreadBlockTrace> blocks;
  for (int c = 0; c < 64; ++c) {
    BlockBuilder b(4);
    for (int w = 0; w < 4; ++w) {
      for (int i = 0; i < 6; ++i)
        b.mem(w, 1 + i, 0, isa::kMemGlobal, isa::kFlagLoad, 4, [=](int l) {
          return uint64_t(0x100000) + uint64_t(c * 4 + w) * 4096 + uint64_t(i) * 512 + 4u * l;
        });
      b.add(w, iadd(8, {1, 2})).add(w, exit_inst());
    }
    blocks.push_back(b.build());
  }
  auto src = kernel(kernel_info(64, 128), std::move(blocks));
  sim::Gpu gpu(cfg);
  stats::KernelRecord rec;
  CHECK(gpu.run_kernel(*src, rec));
  CHECK_EQ(gpu.threads(), unsigned(threads));
  return {rec.end_cycle, rec.sm};
}
}  // namespace

TEST_CASE("871-worker-pool-runs-every-index-once-and-passes-exceptions-on") {
  sim::WorkerPool pool(3);
  CHECK_EQ(pool.threads(), 3u);
  Hits hits;
  for (int phase = 0; phase < 200; ++phase) pool.run(1000, &Hits::task, &hits);
  for (auto& c : hits.count) CHECK_EQ(c.load(), 200u);
  CHECK_THROWS(pool.run(100, &Hits::thrower, nullptr), Error);
  pool.run(1000, &Hits::task, &hits);  // still usable afterwards
  CHECK_EQ(hits.count[999].load(), 201u);
}

TEST_CASE("872-gpu-on-several-threads-gives-the-single-threaded-result") {
  for (const char* model : {"simple", "detailed"}) {
    auto one = run_loads(model, 1);
    for (int64_t n : {2, 3}) {
      auto many = run_loads(model, n);
      CHECK_EQ(many.first, one.first);
      CHECK(std::memcmp(&many.second, &one.second, sizeof(stats::SmCounters)) == 0);
    }
  }
}

TEST_CASE("873-a-broken-admission-contract-is-an-error") {
  FixedLatencyPort below(10);  // claims (by default) never to refuse ...
  below.refuse_until = 100;    // ... but refuses
  ResponseQueue q;
  below.connect(0, &q);
  sim::OutboundPort port(&below);
  port.open(below.admission_room(0));
  MemRequest r;
  r.sector_mask = 1;
  CHECK(port.send(r, Cycle(5)));  // predicted: accepted
  CHECK_THROWS(port.commit(), Error);
  port.direct();
  CHECK(!port.send(r, Cycle(6)));  // direct: the level below answers
}

namespace {
// Blocks 0..n-1, each one warp whose single instruction's pc is the block
// number; throws TraceError when asked for block `fail_at`.
struct NumberedSource : sim::KernelSource {
  NumberedSource(uint32_t n, uint32_t fail_at) : n(n), fail_at(fail_at) {
    info_ = kernel_info(n, 32);
  }
  const trace::KernelInfo& info() const override { return info_; }
  const std::vector<std::string>& unit_class_names() const override {
    return sim::default_unit_class_names();
  }
  bool next_block(trace::ThreadBlockTrace& out) override {
    if (next == fail_at) throw TraceError("numbered", int64_t(next), "block", "bad block");
    if (next == n) return false;
    BlockBuilder b(1);
    b.add(0, exit_inst());
    out = b.build();
    out.insts[0].pc = next++;
    return true;
  }
  trace::KernelInfo info_;
  uint32_t n, fail_at, next = 0;
};
}  // namespace

TEST_CASE("874-read-ahead-gives-the-same-blocks-in-order-and-the-error-at-the-same-block") {
  NumberedSource inner(500, 10000);
  sim::ReadAheadSource ahead(inner, 3);
  trace::ThreadBlockTrace tb;
  for (uint32_t i = 0; i < 500; ++i) {
    CHECK(ahead.next_block(tb));
    CHECK_EQ(tb.insts[0].pc, i);
  }
  CHECK(!ahead.next_block(tb));
  NumberedSource bad(500, 37);
  sim::ReadAheadSource failing(bad, 8);
  for (uint32_t i = 0; i < 37; ++i) CHECK(failing.next_block(tb));
  CHECK_THROWS(failing.next_block(tb), TraceError);
  sim::ReadAheadSource early_exit(inner, 4);  // destroyed mid-kernel: the thread stops
}

namespace {
// Feeds `b` windows that take `parallel_ns` / `sequential_ns` as its choice
// is; returns the choices made at the start of each window.
std::vector<bool> drive(sim::ThreadBackoff& b, int windows, int64_t parallel_ns, int64_t sequential_ns,
                        int64_t& clock) {
  std::vector<bool> chosen;
  for (int w = 0; w < windows; ++w) {
    chosen.push_back(b.parallel());
    while (!b.count()) {
    }
    clock += b.parallel() ? parallel_ns : sequential_ns;
    b.window_end(clock);
  }
  return chosen;
}
}  // namespace

TEST_CASE("875-automatic-threads-keep-the-parallel-phase-only-while-it-is-faster") {
  int64_t clock = 1000;
  sim::ThreadBackoff fast(16, 3);  // 16-cycle windows; the winner runs 3 windows
  // an unmeasured warm-up window, a parallel probe, a sequential probe
  auto c = drive(fast, 3, 100, 300, clock);
  CHECK(c == std::vector<bool>({true, true, false}));
  CHECK_EQ(fast.probes(), 1u);
  CHECK_EQ(fast.parallel_wins(), 1u);
  // The machine gets loaded: after the winner's 3 windows, the next probe
  // sees the parallel window slower and backs off to sequential cycles.
  c = drive(fast, 7, 500, 300, clock);
  CHECK(c == std::vector<bool>({true, true, true, true, false, false, false}));
  CHECK_EQ(fast.probes(), 2u);
  CHECK_EQ(fast.parallel_wins(), 1u);
  sim::ThreadBackoff tie(16, 3);  // within 5 %: one core is the cheaper choice
  c = drive(tie, 6, 98, 100, clock);
  CHECK(c == std::vector<bool>({true, true, false, false, false, false}));
}

TEST_CASE("876-busy-cores-come-from-the-run-queue-and-the-one-minute-load") {
  CHECK_EQ(sim::busy_cores_from("0.00 0.01 0.05 1/300 4242"), 0u);   // idle: only the caller
  CHECK_EQ(sim::busy_cores_from("1.02 0.80 0.40 1/300 4242"), 0u);   // the caller's own last minute
  CHECK_EQ(sim::busy_cores_from("0.10 0.10 0.10 4/300 4242"), 3u);   // three others runnable now
  CHECK_EQ(sim::busy_cores_from("11.40 9.00 5.00 2/310 4242"), 10u); // a loaded minute
  CHECK_EQ(sim::busy_cores_from("garbage"), 0u);
  // threads: 0 never asks for more threads than SMs, nor fewer than one
  CHECK(sim::resolve_threads(0, 4) >= 1u);
  CHECK(sim::resolve_threads(0, 4) <= 4u);
  CHECK_EQ(sim::resolve_threads(3, 8), 3u);
}
