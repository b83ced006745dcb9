// 84x: PTX-mode blocks streamed in bounded chunks: the most records a warp
// holds does not grow with the kernel's length; chunk size and SM threads do
// not change the cycles; a warp that runs dry waits for its refill. A sampled
// kernel's CTAs never dispatched still run, for their effects.
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "isa/isa_table.h"
#include "ptx/emulator.h"
#include "ptx/opcode_table.h"
#include "ptx/program.h"
#include "sim/gpu.h"
#include "sim/ptx_kernel_source.h"
#include "tests/harness.h"
#include "tests/ptx_test_util.h"
#include "tests/test_sm_util.h"

using namespace accelsim;

namespace {

// n rounds of: a global load, a shared store, bar.sync, a shared load; then
// out[global tid] = sum of the rounds' counters (out starts at 0): n*(n-1)/2.
const char* kLoop = R"(
.version 8.0
.target sm_75
.address_size 64
.visible .entry loop(.param .u64 p_out, .param .u32 p_n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 sh[128];
  ld.param.u64 %rd1, [p_out];
  ld.param.u32 %r1, [p_n];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r2, %tid.x;
  mov.u32 %r5, %ctaid.x;
  mad.lo.u32 %r7, %r5, 128, %r2;
  mul.wide.u32 %rd2, %r7, 4;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r5, sh;
  shl.b32 %r6, %r2, 2;
  add.u32 %r6, %r5, %r6;
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
$L_loop:
  ld.global.u32 %r7, [%rd3];
  add.u32 %r4, %r4, %r7;
  add.u32 %r4, %r4, %r3;
  st.shared.u32 [%r6], %r4;
  bar.sync 0;
  ld.shared.u32 %r4, [%r6];
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, %r1;
  @%p1 bra $L_loop;
  st.global.u32 [%rd3], %r4;
  ret;
}
)";

using Tables = testing::PtxTables;

struct Outcome {
  stats::KernelRecord rec;
  sim::PtxKernelSource::StreamStats stream;
  uint64_t dry = 0;
  bool correct = true;
};

// The loop kernel over `ctas` blocks of 128 threads, n rounds, records in
// chunks of `chunk`; its output (zeroed) at `out`.
struct LoopLaunch {
  std::shared_ptr<ptx::Launch> L;
  uint64_t out = 0;
};

LoopLaunch loop_launch(Tables& t, uint32_t ctas, uint32_t n, uint32_t chunk = 128) {
  LoopLaunch l{std::make_shared<ptx::Launch>(), 0};
  ptx::Launch& L = *l.L;
  L.prog = ptx::prepare(ptx::parse_module(kLoop, "loop.ptx", t.ops), "loop", t.isa, t.low, 70);
  L.kernel = "loop";
  L.grid = {ctas, 1, 1};
  L.block = {128, 1, 1};
  L.mem = std::make_shared<ptx::DeviceMemory>();
  L.shmem_base = sim::PtxKernelSource::kSharedWindow;
  L.local_base = sim::PtxKernelSource::kLocalWindow;
  L.chunk_records = chunk;
  l.out = L.mem->allocate(uint64_t(ctas) * 128 * 4);
  L.mem->fill(l.out, 0, uint64_t(ctas) * 128 * 4);
  L.params.resize(12);
  std::memcpy(&L.params[0], &l.out, 8);
  std::memcpy(&L.params[8], &n, 4);
  return l;
}

// Blocks whose every thread wrote the right sum.
uint32_t blocks_written(const LoopLaunch& l, uint32_t n) {
  uint32_t written = 0;
  for (uint32_t b = 0; b < l.L->grid.x; ++b) {
    bool all = true;
    for (uint32_t k = 0; k < 128; ++k) {
      uint32_t v = 0;
      l.L->mem->read(l.out + 4 * (uint64_t(b) * 128 + k), &v, 4);
      all &= v == n * (n - 1) / 2;
    }
    written += all;
  }
  return written;
}

// 8 blocks on 2 SMs, n rounds, records in chunks of `chunk`.
Outcome run_loop(Tables& t, uint32_t n, uint32_t chunk, int threads = 1) {
  LoopLaunch l = loop_launch(t, 8, n, chunk);
  config::GpuConfig cfg = testing::small_config(2);
  cfg.threads = threads;
  sim::Gpu gpu(cfg);
  sim::PtxKernelSource src(l.L, t.isa_ptr, 1, 0, 32, /*streamed=*/true);
  Outcome o;
  gpu.run_kernel(src, o.rec);
  o.stream = src.stream_stats();
  for (size_t i = 0; i < gpu.num_sms(); ++i) o.dry += gpu.sm(i).stream_dry_waits();
  o.correct = blocks_written(l, n) == 8;
  return o;
}

// The loop kernel over `ctas` blocks of 128 threads on 2 SMs (a wave: 32
// blocks), 4 rounds, intra-kernel sampling on; `stop_after`: a poll hook
// stops the run once that many CTAs are done. How many blocks wrote their
// result, and the kernel's record.
struct Sampled {
  stats::KernelRecord rec;
  uint32_t written = 0;
  bool in_budget = true;
};

Sampled run_sampled(Tables& t, uint32_t ctas, uint64_t stop_after = UINT64_MAX) {
  const uint32_t n = 4;
  LoopLaunch l = loop_launch(t, ctas, n);
  sim::Gpu gpu(testing::small_config(2));
  sim::IntraSampling opts;
  opts.enabled = true;
  opts.tolerance = 0.1;
  gpu.set_intra_sampling(opts);
  sim::PtxKernelSource src(l.L, t.isa_ptr, 1, 0, 32, /*streamed=*/true);
  sim::Poller poller([&] {
    uint64_t done = 0, total = 0;
    gpu.cta_progress(done, total);
    return done >= stop_after;
  }, std::chrono::milliseconds(0));
  Sampled s;
  gpu.launch(src, s.rec, 0, gpu.stats()->kernels->add_row());
  std::vector<stats::KernelRecord*> finished;
  s.in_budget = gpu.run_until_kernel_done(Cycle::max(), finished, &poller);
  s.written = blocks_written(l, n);
  return s;
}

}  // namespace

TEST_CASE("841-buffered-records-per-warp-do-not-grow-with-kernel-length") {
  Tables t;
  Outcome s = run_loop(t, 40, 64), l = run_loop(t, 400, 64);
  CHECK(s.correct && l.correct);
  CHECK(l.rec.sm.warp_insts > 9 * s.rec.sm.warp_insts);  // 10x the work...
  CHECK(l.stream.max_buffered <= 64 + 64 / 4 + 16);      // ...in the same bounded buffer
  CHECK_EQ(l.stream.max_buffered, s.stream.max_buffered);
  CHECK(l.stream.refills > 9 * s.stream.refills / 2);
  // whole blocks at launch hold the whole warp's records
  Outcome w = run_loop(t, 400, 0);
  CHECK(w.stream.max_buffered * 4 > l.rec.sm.warp_insts / 32);
}

TEST_CASE("842-chunk-size-and-threads-do-not-change-cycles") {
  Tables t;
  Outcome whole = run_loop(t, 60, 0);
  for (uint32_t chunk : {16u, 64u, 128u}) {
    Outcome c = run_loop(t, 60, chunk);
    CHECK(c.correct);
    CHECK_EQ(c.rec.cycles(), whole.rec.cycles());
    CHECK_EQ(c.rec.sm.warp_insts, whole.rec.sm.warp_insts);
    CHECK_EQ(c.dry, 0u);
  }
  Outcome par = run_loop(t, 60, 16, 2);
  CHECK_EQ(par.rec.cycles(), whole.rec.cycles());
}

TEST_CASE("843-warp-that-runs-dry-waits-for-its-refill") {
  Tables t;
  Outcome whole = run_loop(t, 30, 0), tiny = run_loop(t, 30, 2);
  CHECK(tiny.correct);
  CHECK(tiny.dry > 0);  // it issued everything it had before the refill came
  CHECK(tiny.stream.max_buffered <= 2 + 8);
  CHECK_EQ(tiny.rec.sm.warp_insts, whole.rec.sm.warp_insts);
  // (its cycles differ: a warp waiting for records changes the schedule)
}
TEST_CASE("844-a-sampled-ptx-kernel-runs-its-skipped-ctas-functionally-and-stops-on-a-poll") {
  Tables t;
  const uint32_t ctas = 32 * 24;  // 24 waves
  Sampled s = run_sampled(t, ctas);
  CHECK(s.in_budget);
  CHECK(s.rec.status == stats::KernelStatus::Sampled);
  CHECK(s.rec.simulated_ctas < ctas * 3 / 4);
  CHECK_EQ(s.written, ctas);  // every block ran: the timed ones and the functional tail
  // Ctrl-C (a poll hook) inside the tail: the kernel is cut off there, the
  // blocks after the stop never ran.
  const uint64_t stop = s.rec.simulated_ctas + 11;
  Sampled cut = run_sampled(t, ctas, stop);
  CHECK(!cut.in_budget);
  CHECK(cut.rec.status == stats::KernelStatus::CutOff);
  CHECK_EQ(cut.rec.simulated_ctas, s.rec.simulated_ctas);
  CHECK_EQ(uint64_t(cut.written), stop);
}
