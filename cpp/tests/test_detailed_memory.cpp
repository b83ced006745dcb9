// 58x: the detailed memory system (crossbar, L2 slices, DRAM channels, copy
// engine) under the timing core.
#include <algorithm>

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

constexpr uint8_t kLoadBypass = trace::kFlagLoad | trace::kFlagBypassL1;

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

TEST_CASE("580-detailed-memory-runs-loads-and-stores") {
  config::GpuConfig cfg = detailed_config();
  sim::Gpu gpu(cfg);
  BlockBuilder b(1);
  b.mem(0, 1, 10, trace::kMemGlobal, trace::kFlagLoad, 4, unit_stride(0x10000));
  b.mem(0, -1, 10, trace::kMemGlobal, trace::kFlagStore, 4, unit_stride(0x20000));
  b.add(0, iadd(2, {1})).add(0, exit_inst());
  stats::KernelRecord rec = run(gpu, {b});
  CHECK_EQ(rec.l2_read_misses, 4u);  // 4 sectors fetched from DRAM
  CHECK_EQ(rec.dram_reads, 4u);
  CHECK_EQ(rec.l2_writes, 4u);
  CHECK(gpu.detailed_memory() != nullptr);
  CHECK_EQ(gpu.detailed_memory()->outstanding(), 0u);
}
