// 68x: the detailed memory system (crossbar, L2 slices, DRAM channels, copy
// engine) under the timing core.
#include <algorithm>
#include <cstdio>

#include "mem/detailed_memory.h"
#include "sim/gpu.h"
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;

namespace {

config::GpuConfig detailed_config(int sms = 1) {
  config::GpuConfig cfg = small_config(sms);
  cfg.memory_model = "detailed";
  return cfg;
}

// The GPU holds its memory as a MemPort; these tests look inside the model.
const mem::DetailedMemory& detailed(const sim::Gpu& gpu) {
  return dynamic_cast<const mem::DetailedMemory&>(gpu.memory());
}

constexpr uint8_t kLoadBypass = isa::kFlagLoad | isa::kFlagBypassL1;

auto unit_stride(uint64_t base) {
  return [base](int lane) { return base + uint64_t(lane) * 4; };
}

stats::KernelRecord run(sim::Gpu& gpu, const std::vector<BlockBuilder>& blocks, uint32_t threads = 32,
                        std::vector<sm::Sm::IssueEvent>* log = nullptr) {
  std::vector<trace::ThreadBlockTrace> tbs;
  for (const auto& b : blocks) tbs.push_back(b.build());
  if (log) gpu.sm(0).set_issue_log(log);
  auto src = kernel(kernel_info(uint32_t(tbs.size()), threads), std::move(tbs));
  stats::KernelRecord rec;
  CHECK(gpu.run_kernel(*src, rec));
  return rec;
}

}  // namespace

TEST_CASE("680-detailed-memory-runs-loads-and-stores") {
  config::GpuConfig cfg = detailed_config();
  sim::Gpu gpu(cfg);
  BlockBuilder b(1);
  b.mem(0, 1, 10, isa::kMemGlobal, isa::kFlagLoad, 4, unit_stride(0x10000));
  b.mem(0, -1, 10, isa::kMemGlobal, isa::kFlagStore, 4, unit_stride(0x20000));
  b.add(0, iadd(2, {1})).add(0, exit_inst());
  stats::KernelRecord rec = run(gpu, {b});
  CHECK_EQ(rec.l2_read_misses, 4u);  // 4 sectors fetched from DRAM
  CHECK_EQ(rec.dram_reads, 4u);
  CHECK_EQ(rec.l2_writes, 4u);
  CHECK(dynamic_cast<const mem::DetailedMemory*>(&gpu.memory()) != nullptr);
  CHECK_EQ(gpu.memory().outstanding(), 0u);
}

TEST_CASE("681-l2-hit-is-faster-than-dram-miss") {
  config::GpuConfig cfg = detailed_config();
  sim::Gpu gpu(cfg);
  BlockBuilder b(1);
  auto one = [](int) { return uint64_t(0x40000); };
  b.mem(0, 1, 10, isa::kMemGlobal, kLoadBypass, 4, one);  // pc 0: DRAM
  b.add(0, iadd(2, {1}));                                   // pc 16
  b.mem(0, 3, 2, isa::kMemGlobal, kLoadBypass, 4, one);   // pc 32: L2 hit
  b.add(0, iadd(4, {3}));                                   // pc 48
  b.add(0, exit_inst());
  std::vector<sm::Sm::IssueEvent> log;
  stats::KernelRecord rec = run(gpu, {b}, 32, &log);
  const uint64_t miss = issue_cycle(log, 0, 16) - issue_cycle(log, 0, 0);
  const uint64_t hit = issue_cycle(log, 0, 48) - issue_cycle(log, 0, 32);
  CHECK(hit >= uint64_t(cfg.l2_rop_latency));
  CHECK(miss > hit + uint64_t(cfg.dram_fixed_latency));  // + the DRAM row access
  CHECK_EQ(rec.l2_read_hits, 1u);
  CHECK_EQ(rec.l2_read_misses, 1u);
  CHECK_EQ(rec.dram_reads, 1u);
}

TEST_CASE("682-write-validate-full-write-then-read-reads-no-dram") {
  config::GpuConfig cfg = detailed_config();
  sim::Gpu gpu(cfg);
  BlockBuilder w(1), b(1);  // a writer kernel, then a reader kernel
  w.mem(0, -1, 10, isa::kMemGlobal, isa::kFlagStore, 4, unit_stride(0x80000));  // 4 whole sectors
  w.add(0, exit_inst());
  b.mem(0, 1, 10, isa::kMemGlobal, kLoadBypass, 4, unit_stride(0x80000));
  b.add(0, iadd(2, {1})).add(0, exit_inst());
  stats::KernelRecord wrec = run(gpu, {w});
  stats::KernelRecord rec = run(gpu, {b});
  CHECK_EQ(wrec.l2_writes, 4u);
  CHECK_EQ(wrec.dram_reads, 0u);
  CHECK_EQ(rec.dram_reads, 0u);
  CHECK_EQ(rec.l2_read_hits, 4u);
}

TEST_CASE("683-write-validate-partial-write-then-read-one-dram-read-per-sector") {
  config::GpuConfig cfg = detailed_config();
  sim::Gpu gpu(cfg);
  BlockBuilder w(1), b(1);
  auto every_other_word = [](int lane) { return 0x90000 + uint64_t(lane) * 8; };  // 256 B, half of each sector
  w.mem(0, -1, 10, isa::kMemGlobal, isa::kFlagStore, 4, every_other_word);
  w.add(0, exit_inst());
  b.mem(0, 1, 10, isa::kMemGlobal, kLoadBypass, 4, every_other_word);  // 8 partial sectors
  b.add(0, iadd(2, {1}));
  b.mem(0, 3, 2, isa::kMemGlobal, kLoadBypass, 4, every_other_word);   // now readable: hits
  b.add(0, iadd(4, {3})).add(0, exit_inst());
  CHECK_EQ(run(gpu, {w}).dram_reads, 0u);
  stats::KernelRecord rec = run(gpu, {b});
  CHECK_EQ(rec.dram_reads, 8u);
  CHECK_EQ(rec.l2_read_misses, 8u);
  CHECK_EQ(rec.l2_read_hits, 8u);
  // Fetch-on-write (write-validate off) reads DRAM for the writes instead.
  config::GpuConfig fow = cfg;
  fow.l2_write_validate = false;
  sim::Gpu g2(fow);
  CHECK_EQ(run(g2, {w}).dram_reads, 8u);
  stats::KernelRecord r2 = run(g2, {b});
  CHECK_EQ(r2.dram_reads, 0u);
  CHECK_EQ(r2.l2_read_misses, 0u);  // the reads find the fetched sectors
}

namespace {
// `loads` single-sector loads per warp, warp w load i at addr(w * loads + i).
template <class F>
std::vector<BlockBuilder> load_block(int warps, int loads, F addr) {
  BlockBuilder b(warps);
  for (int w = 0; w < warps; ++w) {
    for (int i = 0; i < loads; ++i) {
      uint64_t a = addr(w * loads + i);
      b.mem(w, 1 + i, 20, isa::kMemGlobal, kLoadBypass, 4, [a](int) { return a; });
    }
    b.add(w, iadd(30, {1, 2})).add(w, exit_inst());
  }
  return {b};
}
}  // namespace

TEST_CASE("684-ipoly-removes-partition-camping-on-power-of-two-stride") {
  uint64_t cycles[2];
  uint64_t max_slice[2];
  const char* names[2] = {"linear", "ipoly"};
  for (int i = 0; i < 2; ++i) {
    config::GpuConfig cfg = detailed_config(4);
    cfg.address_mapping = names[i];
    // Stride = slices x interleave: linear puts every access on one slice.
    const uint64_t stride = uint64_t(cfg.memory_partitions * cfg.l2_slices_per_partition * cfg.l2_interleave);
    sim::Gpu gpu(cfg);
    std::vector<BlockBuilder> blocks;
    for (int c = 0; c < 4; ++c)
      blocks.push_back(load_block(32, 8, [&](int n) { return 0x1000000 + stride * uint64_t(c * 256 + n); })[0]);
    stats::KernelRecord rec = run(gpu, blocks, 32 * 32);
    cycles[i] = rec.cycles();
    const mem::DetailedMemory& m = detailed(gpu);
    max_slice[i] = 0;
    for (size_t s = 0; s < m.slice_count(); ++s)
      max_slice[i] = std::max(max_slice[i], m.slice(s).counters().sector_accesses);
    CHECK_EQ(rec.dram_reads, 1024u);
  }
  CHECK_EQ(max_slice[0], 1024u);  // camping: one slice (and one channel) takes everything
  CHECK(max_slice[1] <= 32u);     // 1024 accesses over 64 slices: 16 each
  CHECK(cycles[0] > 2 * cycles[1]);
}

TEST_CASE("685-frfcfs-beats-fcfs-on-row-locality") {
  uint64_t cycles[2], row_hits[2], activates[2];
  const char* names[2] = {"fcfs", "frfcfs"};
  for (int i = 0; i < 2; ++i) {
    config::GpuConfig cfg = detailed_config();
    cfg.memory_partitions = 1;  // one channel, one slice: local address = address
    cfg.l2_slices_per_partition = 1;
    cfg.dram_scheduler = names[i];
    // Requests alternate between two rows of bank 0 (row 0 and row 1).
    const uint64_t row_stride = uint64_t(cfg.dram_row_size * cfg.dram_banks);
    sim::Gpu gpu(cfg);
    stats::KernelRecord rec = run(gpu, load_block(32, 4, [&](int n) {
      return (n % 2 ? row_stride : 0) + uint64_t(n / 2) * 32;
    }), 32 * 32);
    cycles[i] = rec.cycles();
    row_hits[i] = rec.dram_row_hits;
    activates[i] = rec.dram_activates;
    CHECK_EQ(rec.dram_reads, 128u);
  }
  CHECK(cycles[1] < cycles[0]);
  CHECK(row_hits[1] > row_hits[0]);
  CHECK(activates[1] < activates[0]);
}

TEST_CASE("686-memcpy-leaves-the-data-in-l2") {
  for (int timing = 0; timing < 2; ++timing) {
    config::GpuConfig cfg = detailed_config();
    cfg.memcpy_timing = timing;
    sim::Gpu gpu(cfg);
    const uint64_t base = 0x7f4a3c000000ull;  // full 64-bit address (the reference truncates it)
    gpu.memcpy_to_device(base, 4096);
    if (timing) CHECK(gpu.now() >= 4096 / uint64_t(cfg.copy_bandwidth));
    else CHECK_EQ(gpu.now(), 0u);
    BlockBuilder b(4);
    for (int w = 0; w < 4; ++w) {
      for (int i = 0; i < 8; ++i)
        b.mem(w, 1 + i, 10, isa::kMemGlobal, kLoadBypass, 4,
              [=](int lane) { return base + uint64_t(w * 8 + i) * 128 + uint64_t(lane) * 4; });
      b.add(w, iadd(20, {1})).add(w, exit_inst());
    }
    stats::KernelRecord rec = run(gpu, {b}, 128);
    CHECK_EQ(rec.l2_read_hits + rec.l2_read_misses, 128u);
    CHECK_EQ(rec.dram_reads, timing ? 0u : 128u);
  }
}

TEST_CASE("687-back-pressure-with-tiny-buffers-loses-nothing") {
  config::GpuConfig cfg = detailed_config(2);
  cfg.icnt_in_buffer = 4;  // the largest packet (4 sectors + header) is 4 flits
  cfg.icnt_out_buffer = 4;
  cfg.partition_queue_entries = 1;
  cfg.l2_mshrs = 2;
  cfg.l2_miss_queue = 2;
  cfg.dram_queue = 2;
  cfg.dram_write_queue = 2;
  cfg.dram_write_drain_high = 2;
  cfg.dram_write_drain_low = 1;
  cfg.dram_return_queue = 1;
  cfg.memory_partitions = 2;
  sim::Gpu gpu(cfg);
  std::vector<BlockBuilder> blocks;
  for (int c = 0; c < 2; ++c) {
    BlockBuilder b(8);
    for (int w = 0; w < 8; ++w) {
      const uint64_t base = 0x200000 + uint64_t(c * 8 + w) * 4096;
      b.mem(w, -1, 10, isa::kMemGlobal, isa::kFlagStore, 4, [=](int l) { return base + 2048 + l * 8; });
      for (int i = 0; i < 4; ++i)
        b.mem(w, 1 + i, 10, isa::kMemGlobal, kLoadBypass, 4, [=](int l) { return base + i * 128 + l * 4; });
      b.add(w, iadd(20, {1, 4})).add(w, exit_inst());
    }
    blocks.push_back(b);
  }
  stats::KernelRecord rec = run(gpu, blocks, 256);
  CHECK_EQ(rec.l2_read_misses, 2u * 8 * 4 * 4);  // every sector of every load, once
  CHECK_EQ(rec.dram_reads, 2u * 8 * 4 * 4);
  CHECK_EQ(rec.l2_writes, 2u * 8 * 8);
  CHECK_EQ(gpu.memory().outstanding(), 0u);
}

TEST_CASE("688-atomics-execute-at-l2") {
  config::GpuConfig cfg = detailed_config();
  sim::Gpu gpu(cfg);
  BlockBuilder b(1);
  auto same = [](int) { return uint64_t(0xA0000); };
  b.mem(0, 1, 10, isa::kMemGlobal, isa::kFlagAtomic, 4, same);
  b.add(0, iadd(2, {1}));
  b.mem(0, 3, 10, isa::kMemGlobal, isa::kFlagAtomic, 4, same);
  b.add(0, iadd(4, {3})).add(0, exit_inst());
  stats::KernelRecord rec = run(gpu, {b});
  const mem::MemorySummary m = detailed(gpu).summary();
  CHECK_EQ(m.l2_atomics, 2u);
  CHECK_EQ(rec.dram_reads, 1u);  // the second finds the line in L2
  CHECK_EQ(rec.l2_writes, 0u);
}

TEST_CASE("689-refresh-keeps-its-schedule-across-idle-time") {
  // A channel first used long after time 0 must not owe every refresh since:
  // the first access after a long idle stretch costs about what it costs at once.
  uint64_t lat[2];
  for (int late = 0; late < 2; ++late) {
    config::GpuConfig cfg = detailed_config();
    cfg.dram_tREFI = 3315;
    cfg.dram_tRFC = 298;
    cfg.kernel_launch_latency = late ? 400000 : 0;
    sim::Gpu gpu(cfg);
    BlockBuilder b(1);
    b.mem(0, 1, 10, isa::kMemGlobal, kLoadBypass, 4, [](int) { return uint64_t(0x50000); });
    b.add(0, iadd(2, {1})).add(0, exit_inst());
    std::vector<sm::Sm::IssueEvent> log;
    run(gpu, {b}, 32, &log);
    lat[late] = issue_cycle(log, 0, 16) - issue_cycle(log, 0, 0);
  }
  CHECK(lat[1] < lat[0] + 450);  // at most one refresh (tRFC ~ 400 core cycles) in the way
}

TEST_CASE("690-per-stream-families-agree-with-the-components-own-counters") {
  // Loads (L2 misses, then hits), stores that evict dirty lines, atomics:
  // what the run's families counted per stream adds up to what the slices,
  // channels and crossbar counted themselves.
  config::GpuConfig cfg = detailed_config(2);
  cfg.memory_partitions = 1;  // one small L2: the second sweep evicts dirty lines
  cfg.l2_slices_per_partition = 1;
  cfg.l2_size = 24 * 128 * 4;  // 4 sets of 24 ways
  sim::Gpu gpu(cfg);
  BlockBuilder b(2);
  for (int w = 0; w < 2; ++w) {
    for (int i = 0; i < 64; ++i) {  // 256 lines through a 96-line L2
      const uint64_t base = 0x100000 + uint64_t(w * 64 + i) * 128;
      b.mem(w, -1, 10, isa::kMemGlobal, isa::kFlagStore, 4, unit_stride(base));
      b.mem(w, 1, 10, isa::kMemGlobal, kLoadBypass, 4, unit_stride(base + (1u << 20)));
    }
    b.mem(w, 3, 10, isa::kMemGlobal, isa::kFlagAtomic, 4, [](int) { return uint64_t(0x300000); });
    b.add(w, iadd(2, {1, 3})).add(w, exit_inst());
  }
  stats::KernelRecord rec = run(gpu, {b}, 64);
  const mem::DetailedMemory& m = detailed(gpu);
  const mem::MemorySummary s = m.summary();
  const stats::CounterRegistry& reg = gpu.stats()->registry;
  auto total = [&](const char* name) {
    uint64_t t = 0;
    for (uint64_t v : reg.find(name)->values()) t += v;
    return t;
  };
  // The slice caches count into the family: same totals as the summary.
  CHECK_EQ(rec.l2_read_hits, s.l2_read_hits);
  CHECK_EQ(rec.l2_read_misses, s.l2_read_misses);
  CHECK_EQ(rec.l2_writes, s.l2_writes);
  CHECK_EQ(total("l2.atomics"), s.l2_atomics);
  CHECK_EQ(s.l2_atomics, 2u);
  // DRAM: per request, activates and row hits; reads and writes in sectors.
  const stats::CounterFamily& dram = *reg.find("dram.ops");
  uint64_t ops[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < dram.size(); ++i) ops[i % 4] += dram.values()[i];
  CHECK_EQ(ops[2], s.dram_activates);
  CHECK_EQ(ops[3], s.dram_row_hits);
  CHECK(s.dram_writes > 0);   // dirty lines were written back...
  CHECK(ops[1] >= s.dram_writes);  // ...and each write moved at least a sector
  CHECK(ops[0] >= s.dram_reads && ops[0] == rec.dram_reads);
  // Interconnect: every flit the crossbars moved, by direction.
  const stats::CounterFamily& fl = *reg.find("icnt.flits");
  uint64_t req = 0, rep = 0;
  for (uint32_t src = 0; src < 2; ++src) req += m.interconnect().request().source_counter(src, icnt::PortCounter::flits);
  for (uint32_t src = 0; src < m.slice_count(); ++src)
    rep += m.interconnect().reply().source_counter(src, icnt::PortCounter::flits);
  CHECK_EQ(fl.at({0, 0}), req);
  CHECK_EQ(fl.at({0, 1}), rep);
}

TEST_CASE("691-device-to-host-copy-reads-through-l2-beside-a-host-to-device-copy") {
  config::GpuConfig cfg = detailed_config();
  const uint64_t fresh = 0x7f4a3c000000ull, copied = 0x7f4a3d000000ull;
  // Data never written: every sector comes from DRAM.
  sim::Gpu cold(cfg);
  cold.begin_copy(fresh, 4096, true);
  CHECK(cold.run_copy(UINT64_MAX));
  CHECK_EQ(detailed(cold).summary().dram_reads, 4096u / 32u);
  CHECK(cold.now() >= 4096 / uint64_t(cfg.copy_bandwidth));
  // Data a host-to-device copy just left in L2: no DRAM read, and the copy
  // takes the link time, as the other direction does.
  sim::Gpu warm(cfg);
  warm.memcpy_to_device(copied, 4096);
  const uint64_t h2d = warm.now();
  warm.begin_copy(copied, 4096, true);
  CHECK(warm.copying(true));
  CHECK(warm.run_copy(UINT64_MAX));
  CHECK_EQ(detailed(warm).summary().dram_reads, 0u);
  const uint64_t d2h = warm.now() - h2d;
  CHECK(d2h + 64 >= h2d);
  CHECK(d2h <= h2d + 200);
  // Both engines at once (full-duplex link): about one copy's time, not two.
  sim::Gpu both(cfg);
  both.begin_copy(copied, 4096, false);
  both.begin_copy(fresh, 4096, true);
  while (both.copying(false) || both.copying(true)) CHECK(both.run_copies(UINT64_MAX));
  CHECK(both.now() < h2d + d2h - h2d / 2);
}
