// 22x: the real traces of ../shared/data (skipped when absent).
#include <filesystem>
#include <bit>

#include "tests/harness.h"
#include "tests/test_trace_util.h"

using namespace accelsim::trace;
namespace isa = accelsim::isa;
using accelsim::testing::isa_registry;

namespace {

std::string shared_traces() {
  if (const char* env = std::getenv("ACCELSIM_SHARED_DATA")) return std::string(env) + "/traces";
  return std::string(ACCELSIM_SOURCE_DIR) + "/../shared/data/traces";
}

struct Totals {
  uint64_t kernels = 0, blocks = 0, warp_insts = 0, thread_insts = 0;
};

Totals count(const std::string& list) {
  Totals t;
  ThreadBlockTrace tb;
  for (const Command& c : read_command_list(list)) {
    if (c.kind != Command::Kind::Kernel) continue;
    ++t.kernels;
    KernelTraceReader r(c.kernel_path, isa_registry());
    while (r.next_block(tb)) {
      ++t.blocks;
      t.warp_insts += tb.insts.size();
      for (const isa::InstRecord& i : tb.insts) t.thread_insts += std::popcount(i.active_mask);
    }
  }
  return t;
}

}  // namespace

TEST_CASE("221-real-bfs-sm70-counts") {
  std::string list = shared_traces() + "/bfs_rodinia31_sm70/kernelslist.g";
  if (!std::filesystem::exists(list)) return;  // ../shared absent: nothing to check
  Totals t = count(list);
  CHECK_EQ(t.kernels, 16u);
  CHECK_EQ(t.blocks, 128u);
  CHECK_EQ(t.warp_insts, 154839u);
  CHECK_EQ(t.thread_insts, 1207402u);
  auto cmds = read_command_list(list);
  CHECK_EQ(cmds.at(0).address, 0x00007f7393700000ull);
  CHECK_EQ(cmds.at(0).bytes, 32768u);
}

TEST_CASE("222-real-vecadd-old-layout-counts") {
  std::string list = shared_traces() + "/vecadd_sm75_tracer12/kernelslist.g";
  if (!std::filesystem::exists(list)) return;
  Totals t = count(list);
  CHECK_EQ(t.blocks, 98u);
  CHECK_EQ(t.warp_insts, 46941u);
  CHECK_EQ(t.thread_insts, 1402112u);
}
