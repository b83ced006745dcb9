// 47x: non-sectored caches (sector = line: Kepler..Pascal L1s, GPGPU-Sim 'N'
// caches). A miss fetches the whole line; any later access to the line hits,
// whichever 32 B of it it touches; L1 and L2 each keep their own sector size
// and meet in 32 B granules.
#include "base/sector_granules.h"
#include "cache/cache.h"
#include "sim/gpu.h"
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;

namespace {

cache::CacheParams whole_line_params() {
  cache::CacheParams p;
  p.name = "test";
  p.size_bytes = 4 * 2 * 128;
  p.line_bytes = 128;
  p.sector_bytes = 128;
  p.assoc = 2;
  p.mshr_entries = 4;
  p.mshr_max_merge = 4;
  p.miss_queue_entries = 8;
  return p;
}

cache::CacheRequest read_bytes(uint64_t line, unsigned first, unsigned count, uint32_t tag = 0) {
  cache::CacheRequest r;
  r.line_addr = line;
  r.sector = 0;
  r.tag = tag;
  r.bytes = ByteMask::range(first, count);
  return r;
}

// Lanes 0..7 read 4 B each: 32 contiguous bytes at `base` (one granule).
constexpr uint32_t kEightLanes = 0xffu;
auto words(uint64_t base) {
  return [base](int lane) { return base + uint64_t(lane) * 4; };
}

stats::KernelRecord run_block(const config::GpuConfig& cfg, const BlockBuilder& b,
                              std::vector<sm::Sm::IssueEvent>* log = nullptr) {
  sim::Gpu gpu(cfg);
  if (log) gpu.sm(0).set_issue_log(log);
  auto src = kernel(kernel_info(1, uint32_t(b.warps.size() * 32)), {b.build()});
  stats::KernelRecord rec;
  CHECK(gpu.run_kernel(*src, rec));
  return rec;
}

// Two dependent loads of one line: bytes [0,32) then [64,96).
BlockBuilder two_loads_one_line(uint8_t flags) {
  BlockBuilder b(1);
  b.mem(0, 1, 10, isa::kMemGlobal, flags, 4, words(0x4000), kEightLanes);       // pc 0
  b.add(0, iadd(2, {1}));                                                           // pc 16
  b.mem(0, 3, 2, isa::kMemGlobal, flags, 4, words(0x4000 + 64), kEightLanes);  // pc 32
  b.add(0, iadd(4, {3}));                                                           // pc 48
  b.add(0, exit_inst());
  return b;
}

}  // namespace

TEST_CASE("571-non-sectored-cache-miss-fetches-the-whole-line") {
  cache::Cache c(whole_line_params());
  CHECK(c.access(read_bytes(0x1000, 0, 32, 1), Cycle(0)).outcome == cache::Outcome::MISS);
  CHECK_EQ(c.miss_queue().size(), size_t{1});
  const cache::OutRequest& out = c.miss_queue().front();
  CHECK_EQ(int(out.sector_mask), 1);
  CHECK(out.bytes.covers(0, 128));  // all 128 B are fetched, not the 32 touched
  // Another 32 B of the same line while the fill is on its way: merged.
  CHECK(c.access(read_bytes(0x1000, 96, 32, 2), Cycle(1)).outcome == cache::Outcome::HIT_RESERVED);
  CHECK_EQ(c.mshrs().in_use(), uint32_t{1});
  CHECK_EQ(c.fill(0x1000, 0, Cycle(10)).size(), size_t{2});  // both waiters answered by one fill
}

TEST_CASE("572-non-sectored-cache-another-sector-of-the-line-hits") {
  cache::Cache c(whole_line_params());
  c.access(read_bytes(0x1000, 0, 32), Cycle(0));
  c.miss_queue().pop();
  c.fill(0x1000, 0, Cycle(10));
  for (unsigned first : {0u, 32u, 64u, 96u})
    CHECK(c.access(read_bytes(0x1000, first, 32), Cycle(11)).outcome == cache::Outcome::HIT);
  CHECK_EQ(c.count(cache::AccessType::GLOBAL_R, cache::Outcome::HIT), uint64_t{4});
}

TEST_CASE("573-granules-convert-to-and-from-cache-sectors") {
  CHECK_EQ(int(granules_of_sectors(0b0101, 32)), 0b0101);
  CHECK_EQ(int(granules_of_sectors(0b1, 128)), 0b1111);
  CHECK_EQ(int(granules_of_sectors(0b10, 64)), 0b1100);
  CHECK_EQ(int(sectors_of_granules(0b0100, 128)), 0b1);
  CHECK_EQ(int(sectors_of_granules(0b0110, 64)), 0b11);
  CHECK_EQ(int(sectors_of_granules(0b1000, 32)), 0b1000);
}

TEST_CASE("574-non-sectored-l1d-hits-on-another-sector-after-a-miss") {
  for (int sectored = 0; sectored < 2; ++sectored) {
    config::GpuConfig cfg = small_config();
    cfg.l1d_sector = sectored ? 32 : 128;
    std::vector<sm::Sm::IssueEvent> log;
    stats::KernelRecord rec = run_block(cfg, two_loads_one_line(isa::kFlagLoad), &log);
    const uint64_t second = issue_cycle(log, 0, 48) - issue_cycle(log, 0, 32);
    if (sectored) {  // [64,96) is another sector: a second miss
      CHECK_EQ(rec.sm.l1d_misses, 2u);
      CHECK(second > uint64_t(cfg.l1d_hit_latency));
    } else {  // the first miss brought the whole line
      CHECK_EQ(rec.sm.l1d_misses, 1u);
      CHECK_EQ(rec.sm.l1d_hits, 1u);
      CHECK_EQ(second, uint64_t(cfg.l1d_hit_latency));
    }
  }
}

TEST_CASE("575-non-sectored-l1d-miss-reads-the-whole-line-below") {
  for (const char* model : {"simple", "detailed"}) {
    config::GpuConfig cfg = small_config();
    cfg.memory_model = model;
    cfg.l1d_sector = 128;  // L2 stays sectored (Pascal): four 32 B sectors come from DRAM
    BlockBuilder b(1);
    b.mem(0, 1, 10, isa::kMemGlobal, isa::kFlagLoad, 4, words(0x8000), kEightLanes);
    b.add(0, iadd(2, {1})).add(0, exit_inst());
    stats::KernelRecord rec = run_block(cfg, b);
    CHECK_EQ(rec.sm.l1d_misses, 1u);
    CHECK_EQ(rec.l2_read_misses, 4u);
  }
}

TEST_CASE("576-non-sectored-l2-miss-fills-the-line-and-another-sector-hits") {
  for (const char* model : {"simple", "detailed"}) {
    config::GpuConfig cfg = small_config();
    cfg.memory_model = model;
    cfg.l2_sector = 128;
    // Bypass L1 so that both loads reach the L2.
    stats::KernelRecord rec = run_block(cfg, two_loads_one_line(isa::kFlagLoad | isa::kFlagBypassL1));
    CHECK_EQ(rec.l2_read_misses, 1u);
    CHECK_EQ(rec.l2_read_hits, 1u);
    CHECK_EQ(rec.sm.l1d_bypass, 2u);  // 32 B each: a bypass moves only what it touches
  }
}

TEST_CASE("577-non-sectored-l1-and-l2-run-loads-stores-and-atomics") {
  for (const char* model : {"simple", "detailed"}) {
    config::GpuConfig cfg = small_config();
    cfg.memory_model = model;
    cfg.l1d_sector = 128;
    cfg.l2_sector = 128;
    cfg.coalescer_threads = 32;
    cfg.coalescer_segment = 128;
    auto stride = [](uint64_t base, uint64_t step) {
      return [base, step](int lane) { return base + uint64_t(lane) * step; };
    };
    BlockBuilder b(2);
    for (int w = 0; w < 2; ++w) {
      b.mem(w, -1, 10, isa::kMemGlobal, isa::kFlagStore, 4, stride(0x10000 + w * 4096, 4));
      b.mem(w, 1, 10, isa::kMemGlobal, isa::kFlagLoad, 4, stride(0x10000, 36));
      b.mem(w, 2, 1, isa::kMemGlobal, isa::kFlagLoad | isa::kFlagAtomic, 4, stride(0x20000, 8));
      b.mem(w, 3, 2, isa::kMemGlobal, isa::kFlagLoad, 8, stride(0x10000 + w * 4096, 8));
      b.add(w, iadd(4, {3})).add(w, exit_inst());
    }
    stats::KernelRecord rec = run_block(cfg, b);
    CHECK(rec.cycles() > 0);
    CHECK_EQ(rec.sm.warp_insts, 12u);
    CHECK(rec.l2_read_hits + rec.l2_read_misses > 0);
  }
}
