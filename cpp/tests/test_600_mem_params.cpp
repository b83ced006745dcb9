// 695-697: the memory models are built from their own parameters (no GPU
// config), and the GPU drives host copies through the MemPort contract
// whatever model it holds.
#include <algorithm>

#include "mem/detailed_memory.h"
#include "mem/simple_memory.h"
#include "mem/simple_memory_params.h"
#include "config/gpu_config.h"
#include "sim/gpu.h"
#include "tests/fixed_latency_port.h"
#include "tests/harness.h"
#include "tests/test_sm_util.h"

using namespace accelsim;
using namespace accelsim::testing;
using namespace accelsim::literals;

namespace {

// The cycle a response to `token` pops from `q`, ticking `m` (if clocked)
// once per core cycle; Cycle::max() if none comes within `limit` cycles.
Cycle answered_at(Clocked* m, ResponseQueue& q, uint32_t token, Cycle from, uint64_t limit = 100000) {
  for (Cycle c = from; c < from + limit; ++c) {
    if (m) m->tick(c);
    while (q.due(c))
      if (q.pop().token == token) return c;
  }
  return Cycle::max();
}

MemRequest read(uint64_t line, uint32_t token, uint16_t sm) {
  MemRequest r;
  r.line_addr = line;
  r.token = token;
  r.sm = sm;
  r.sector_mask = 0x1;
  r.kind = kMemRead;
  return r;
}

}  // namespace

TEST_CASE("695-detailed-memory-built-alone-from-its-params") {
  mem::DetailedMemoryParams p;  // two SMs over two channels, no GpuConfig anywhere
  p.sms = 2;
  p.partitions = 2;
  p.slices_per_partition = 1;
  p.l2_slice.size_bytes = 16 * 1024;
  p.l2_slice.assoc = 4;
  p.address_map.partitions = 2;
  p.address_map.slices_per_partition = 1;
  p.request_network.sources = p.reply_network.destinations = 2;
  p.request_network.destinations = p.reply_network.sources = 2;
  p.rop_latency = 10;
  p.dram_fixed_latency = 20;
  mem::DetailedMemory m(p);
  ResponseQueue q0, q1;
  m.connect(0, &q0);
  m.connect(1, &q1);
  CHECK(m.send(read(0x1000, 7, 1), 0_cy));
  const Cycle miss = answered_at(&m, q1, 7, 0_cy);
  CHECK(miss != Cycle::max());
  CHECK(m.send(read(0x1000, 8, 1), miss + 1));
  const Cycle hit = answered_at(&m, q1, 8, miss + 1);
  CHECK(hit != Cycle::max());
  CHECK(hit - (miss + 1) < miss.count());  // the second read hits in the slice
  CHECK(q0.empty());
  CHECK_EQ(m.outstanding(), 0u);
}

TEST_CASE("696-simple-memory-built-alone-from-its-params") {
  mem::SimpleMemoryParams p;
  p.l2_latency = 30;
  p.dram_latency = 200;
  p.l2_bytes_per_cycle = p.dram_bytes_per_cycle = 64;
  p.l2_sets = 16;
  p.l2_ways = 4;
  mem::SimpleMemory m(p);
  ResponseQueue q;
  m.connect(0, &q);
  CHECK(m.send(read(0x2000, 1, 0), 10_cy));
  CHECK_EQ(answered_at(nullptr, q, 1, 10_cy), 10u + 200u);
  CHECK(m.send(read(0x2000, 2, 0), 500_cy));
  CHECK_EQ(answered_at(nullptr, q, 2, 500_cy), 500u + 30u);
  // A host-to-device copy warms L2 through the MemPort contract.
  m.begin_copy(0x8000, 128, 600_cy, false);
  CHECK(!m.copying(false));  // it takes no time here
  CHECK(m.send(read(0x8000, 3, 0), 700_cy));
  CHECK_EQ(answered_at(nullptr, q, 3, 700_cy), 700u + 30u);
}

// 642: the simple model keeps the whole L2 of a config whose set count is not
// a power of two (TITAN V: 4.5 MiB = 1,536 sets of 24 x 128 B), and its
// linear index reaches every set.
TEST_CASE("642-simple-memory-keeps-a-non-power-of-two-l2") {
  config::GpuConfig cfg;
  cfg.l2_size = 4608 * 1024;
  cfg.l2_line = 128;
  cfg.l2_assoc = 24;
  const mem::SimpleMemoryParams p = mem::simple_memory_params(cfg);
  CHECK_EQ(p.l2_sets, 1536u);
  CHECK_EQ(int64_t(p.l2_sets) * p.l2_ways * p.l2_line_bytes, cfg.l2_size);
}

namespace {
// A level whose copies take `copy_cycles` core cycles: the GPU must drive
// them through MemPort alone.
struct TimedCopyPort : FixedLatencyPort {
  explicit TimedCopyPort(uint64_t copy_cycles) : FixedLatencyPort(10), copy_cycles(copy_cycles) {}
  void begin_copy(uint64_t, uint64_t bytes, Cycle now, bool to_host) override {
    if (bytes) done_at[to_host] = now + copy_cycles;
  }
  bool copying(bool to_host) const override { return done_at[to_host] != Clocked::kNever; }
  Cycle advance_copy(Cycle now, Cycle limit) override {
    const Cycle end = std::min({limit, done_at[0], done_at[1]});
    for (Cycle& d : done_at)
      if (d <= end) d = Clocked::kNever;
    return latest(now, end);
  }
  uint64_t copy_cycles;
  Cycle done_at[2] = {Clocked::kNever, Clocked::kNever};  // kNever: no copy
};
}  // namespace

TEST_CASE("697-gpu-drives-copies-through-the-mem-port") {
  auto port = std::make_unique<TimedCopyPort>(1234);
  TimedCopyPort& p = *port;
  sim::Gpu gpu(small_config(1), std::move(port));
  gpu.memcpy_to_device(0x1000, 4096);
  CHECK_EQ(gpu.now(), 1234u);
  gpu.begin_copy(0x1000, 4096, true);
  CHECK(gpu.copying(true));
  CHECK(!gpu.run_copy(1500_cy));  // the budget stops it inside the copy
  CHECK_EQ(gpu.now(), 1500u);
  CHECK(gpu.run_copy(Cycle::max()));
  CHECK_EQ(gpu.now(), 1234u + 1234u);
  CHECK(!p.copying(true));
}
