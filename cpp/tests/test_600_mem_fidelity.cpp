// 692-694, 698-699: the memory-system features the published-hardware
// comparison needed: L2 slice bandwidth, the far half of a split L2, the L2's
// DRAM fetch granularity, and a lone chase's latency rising with them.
#include <cstdio>

#include "mem/detailed_memory.h"
#include "sim/gpu.h"
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;

namespace {

constexpr uint8_t kLoadBypass = isa::kFlagLoad | isa::kFlagBypassL1;

config::GpuConfig mem_config(int sms, int partitions) {
  config::GpuConfig cfg = small_config(sms);
  cfg.memory_model = "detailed";
  cfg.memory_partitions = partitions;
  cfg.l2_slices_per_partition = 1;
  cfg.l2_size = int64_t(partitions) * 24 * 128 * 64;  // 64 sets of 24 ways per slice
  cfg.dram_tREFI = 0;  // no refresh: exact latencies
  return cfg;
}

stats::KernelRecord run(sim::Gpu& gpu, const std::vector<BlockBuilder>& blocks,
                        std::vector<sm::Sm::IssueEvent>* log = nullptr) {
  std::vector<trace::ThreadBlockTrace> tbs;
  for (const auto& b : blocks) tbs.push_back(b.build());
  if (log) gpu.sm(0).set_issue_log(log);
  auto src = kernel(kernel_info(uint32_t(tbs.size()), 32 * uint32_t(blocks[0].warps.size())), std::move(tbs));
  stats::KernelRecord rec;
  CHECK(gpu.run_kernel(*src, rec));
  return rec;
}

// First line address at or after `from` that maps to L2 slice `slice`.
uint64_t line_on_slice(const sim::Gpu& gpu, uint32_t slice, uint64_t from) {
  const mem::AddressMap& m = dynamic_cast<const mem::DetailedMemory&>(gpu.memory()).address_map();
  for (uint64_t a = from;; a += 128)
    if (m.global_slice(a) == slice) return a;
}

// One warp loads each address (one lane, L1 bypassed) and waits for it:
// the load-to-use cycles of each, and the SM that ran it.
struct Chase {
  std::vector<uint64_t> cycles;
  int sm = -1;
};
Chase load_to_use(sim::Gpu& gpu, const std::vector<uint64_t>& addrs) {
  BlockBuilder b(1);
  for (size_t i = 0; i < addrs.size(); ++i) {
    const uint64_t a = addrs[i];
    b.mem(0, 1, 10, isa::kMemGlobal, kLoadBypass, 4, [a](int) { return a; }, 1u);
    b.add(0, iadd(2, {1}));
  }
  b.add(0, exit_inst());
  std::vector<std::vector<sm::Sm::IssueEvent>> logs(uint32_t(gpu.num_sms()));
  for (uint32_t s = 0; s < uint32_t(gpu.num_sms()); ++s) gpu.sm(s).set_issue_log(&logs[s]);
  std::vector<trace::ThreadBlockTrace> tbs{b.build()};
  auto src = kernel(kernel_info(1, 32), std::move(tbs));
  stats::KernelRecord rec;
  CHECK(gpu.run_kernel(*src, rec));
  Chase out;
  for (uint32_t s = 0; s < uint32_t(gpu.num_sms()); ++s) {
    gpu.sm(s).set_issue_log(nullptr);
    if (logs[s].empty()) continue;
    out.sm = int(s);
    for (size_t i = 0; i < addrs.size(); ++i)
      out.cycles.push_back(issue_cycle(logs[s], 0, uint32_t(32 * i + 16)) - issue_cycle(logs[s], 0, uint32_t(32 * i)));
  }
  return out;
}

// Kernel cycles of 16 warps each reading the same 32 lines (L2 hits after
// a first kernel brought them in) on a single slice.
uint64_t hit_stream_cycles(int64_t slice_bandwidth) {
  config::GpuConfig cfg = mem_config(1, 1);
  cfg.l2_slice_bandwidth = slice_bandwidth;
  cfg.icnt_flit_size = 256;  // one flit per reply: the crossbar is not the limit
  sim::Gpu gpu(cfg);
  auto lines = [](int w) {
    BlockBuilder b(w);
    for (int i = 0; i < w; ++i)
      for (int k = 0; k < 32; ++k)
        b.mem(i, 1 + k % 8, 10, isa::kMemGlobal, kLoadBypass, 4,
              [k](int lane) { return 0x100000 + uint64_t(k) * 128 + uint64_t(lane) * 4; });
    for (int i = 0; i < w; ++i) b.add(i, exit_inst());
    return b;
  };
  run(gpu, {lines(1)});
  const stats::KernelRecord rec = run(gpu, {lines(16)});
  CHECK_EQ(rec.dram_reads, 0u);
  return rec.end_cycle - rec.start_cycle;
}

}  // namespace

TEST_CASE("692-l2-slice-bandwidth-paces-sector-accesses") {
  // 16 warps x 32 lines x 4 sectors = 2048 sector hits on one slice.
  const uint64_t at32 = hit_stream_cycles(32), at16 = hit_stream_cycles(16), at64 = hit_stream_cycles(64);
  const uint64_t at24 = hit_stream_cycles(24);
  CHECK(at32 >= 2048 && at32 < 2048 + 600);
  CHECK(at16 >= 4096 && at16 < 4096 + 600);    // half a sector per cycle
  CHECK(at24 * 3 >= 2048 * 4);                 // a fractional rate averages out
  CHECK(at24 < 2048 * 4 / 3 + 600);
  CHECK(at64 < at32 * 3 / 4);                  // two sectors per cycle
}

TEST_CASE("693-a-miss-on-the-far-half-of-a-split-l2-pays-the-far-latency") {
  config::GpuConfig cfg = mem_config(2, 2);  // SM 0 and slice 0 lower half, SM 1 and slice 1 upper
  cfg.l2_far_latency = 100;
  sim::Gpu gpu(cfg);
  const uint64_t lines[2] = {line_on_slice(gpu, 0, 0x200000), line_on_slice(gpu, 1, 0x200000)};
  const Chase miss = load_to_use(gpu, {lines[0], lines[1]});
  CHECK(miss.sm >= 0);
  const size_t far = miss.sm == 0 ? 1 : 0;  // the line on the other half's slice
  CHECK_EQ(miss.cycles[far], miss.cycles[1 - far] + 100);  // L2 clock = core clock
  // A hit stands for the near half's copy: no extra latency.
  const Chase hit = load_to_use(gpu, {lines[0], lines[1]});
  CHECK_EQ(hit.cycles[0], hit.cycles[1]);
  config::GpuConfig one = cfg;
  one.l2_far_latency = 0;
  sim::Gpu undivided(one);
  const Chase plain = load_to_use(undivided, {lines[0], lines[1]});
  CHECK_EQ(plain.cycles[0], plain.cycles[1]);
  CHECK_EQ(plain.cycles[0], miss.cycles[1 - far]);
}

TEST_CASE("694-l2-fetch-granularity-brings-the-neighbour-sector") {
  for (int64_t granularity : {32, 64, 128}) {
    config::GpuConfig cfg = mem_config(1, 1);
    cfg.l2_fetch_granularity = granularity;
    sim::Gpu gpu(cfg);
    BlockBuilder b(1);  // sector 0, then sector 1, then sector 2 of one line, each waited for
    for (int s = 0; s < 3; ++s) {
      b.mem(0, 1 + 2 * s, 10, isa::kMemGlobal, kLoadBypass, 4,
            [s](int lane) { return 0x300000 + uint64_t(s) * 32 + uint64_t(lane % 8) * 4; });
      b.add(0, iadd(2 + 2 * s, {1 + 2 * s}));
    }
    b.add(0, exit_inst());
    const stats::KernelRecord rec = run(gpu, {b});
    const uint64_t fetched = uint64_t(granularity / 32);  // sectors per miss
    CHECK_EQ(rec.l2_read_misses, fetched == 1 ? 3u : fetched == 2 ? 2u : 1u);
    CHECK_EQ(rec.l2_read_hits, 3u - rec.l2_read_misses);
    CHECK_EQ(rec.dram_reads, fetched == 1 ? 3u : fetched == 2 ? 4u : 4u);  // 32 B bursts
  }
}

TEST_CASE("698-fetch-granularity-skips-sectors-already-present") {
  // A written (valid) sector is not fetched again with its neighbour.
  config::GpuConfig cfg = mem_config(1, 1);
  cfg.l2_fetch_granularity = 64;
  sim::Gpu gpu(cfg);
  BlockBuilder w(1), r(1);
  w.mem(0, -1, 10, isa::kMemGlobal, isa::kFlagStore, 4,
        [](int lane) { return 0x400020 + uint64_t(lane % 8) * 4; });  // all of sector 1
  w.add(0, exit_inst());
  r.mem(0, 1, 10, isa::kMemGlobal, kLoadBypass, 4, [](int lane) { return 0x400000 + uint64_t(lane % 8) * 4; });
  r.add(0, iadd(2, {1})).add(0, exit_inst());
  run(gpu, {w});
  const stats::KernelRecord rec = run(gpu, {r});
  CHECK_EQ(rec.dram_reads, 1u);  // sector 0 alone
}

TEST_CASE("699-device-to-host-copy-pays-the-l2-or-dram-latency-after-the-link-time") {
  config::GpuConfig cfg = mem_config(1, 2);
  cfg.copy_bandwidth = 32;  // one sector per core cycle: 128 cycles of link time for 4 KiB
  const uint64_t bytes = 4096, link = bytes / 32;
  // From L2 (a host-to-device copy just wrote it): link time + the L2 hit latency.
  sim::Gpu warm(cfg);
  warm.memcpy_to_device(0x500000, bytes);
  const uint64_t h2d = warm.now();
  warm.begin_copy(0x500000, bytes, true);
  CHECK(warm.run_copy(UINT64_MAX));
  const uint64_t hit = warm.now() - h2d;
  CHECK(hit >= link + uint64_t(cfg.l2_rop_latency));
  CHECK(hit < link + uint64_t(cfg.l2_rop_latency) + 40);
  CHECK(h2d < link + 40);  // the write is posted: no ROP latency to wait for
  // From DRAM: the fixed latency and the DRAM access on top.
  sim::Gpu cold(cfg);
  cold.begin_copy(0x700000, bytes, true);
  CHECK(cold.run_copy(UINT64_MAX));
  CHECK(cold.now() >= hit + uint64_t(cfg.dram_fixed_latency) + uint64_t(cfg.dram_tRCD + cfg.dram_tCL));
}
