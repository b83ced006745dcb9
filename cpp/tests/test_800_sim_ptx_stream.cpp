// 84x: PTX-mode blocks streamed in bounded chunks: the most records a warp
// holds does not grow with the kernel's length; chunk size and SM threads do
// not change the cycles; a warp that runs dry waits for its refill.
#include <cstring>
#include <string>

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

// 8 blocks of 128 threads on 2 SMs, n rounds, records in chunks of `chunk`.
Outcome run_loop(Tables& t, uint32_t n, uint32_t chunk, int threads = 1) {
  auto L = std::make_shared<ptx::Launch>();
  L->prog = ptx::prepare(ptx::parse_module(kLoop, "loop.ptx", t.ops), "loop", t.isa, t.low, 70);
  L->kernel = "loop";
  L->grid = {8, 1, 1};
  L->block = {128, 1, 1};
  L->mem = std::make_shared<ptx::DeviceMemory>();
  L->shmem_base = sim::PtxKernelSource::kSharedWindow;
  L->local_base = sim::PtxKernelSource::kLocalWindow;
  L->chunk_records = chunk;
  const uint64_t out = L->mem->allocate(8 * 128 * 4);
  L->mem->fill(out, 0, 8 * 128 * 4);
  L->params.resize(12);
  std::memcpy(&L->params[0], &out, 8);
  std::memcpy(&L->params[8], &n, 4);
  config::GpuConfig cfg = testing::small_config(2);
  cfg.threads = threads;
  sim::Gpu gpu(cfg);
  sim::PtxKernelSource src(L, t.isa_ptr, 1, 0, 32, /*streamed=*/true);
  Outcome o;
  gpu.run_kernel(src, o.rec);
  o.stream = src.stream_stats();
  for (size_t i = 0; i < gpu.num_sms(); ++i) o.dry += gpu.sm(i).stream_dry_waits();
  for (uint32_t k = 0; k < 8 * 128; ++k) {
    uint32_t v = 0;
    L->mem->read(out + 4 * k, &v, 4);
    o.correct &= v == n * (n - 1) / 2;
  }
  return o;
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
