// 26x: the sampling profile of a kernel trace: counts of the first blocks,
// the lines they touch, and the text they took.
#include <sstream>
#include <string>

#include "tests/harness.h"
#include "tests/test_trace_util.h"
#include "trace/kernel_profile.h"

using namespace accelsim;
using namespace accelsim::testing;

namespace {

// Three blocks of one warp: a 128-byte load (its own line per block, and
// the next line in block 2), an add, and EXIT.
std::string three_blocks() {
  std::string h = header(4);
  h.replace(h.find("(1,1,1)"), 7, "(3,1,1)");
  std::string body;
  for (int b = 0; b < 3; ++b) {
    const uint64_t base = 0x10000 + uint64_t(b) * 128;
    body += "#BEGIN_TB\n\nthread block = " + std::to_string(b) + ",0,0\n\nwarp = 0\ninsts = 3\n";
    body += "0000 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x" + (std::ostringstream() << std::hex << base).str() +
            (b == 2 ? " 8\n" : " 4\n");
    body += "0010 ffffffff 1 R3 IADD3 1 R2 0\n0020 ffffffff 0 EXIT 0 0\n\n#END_TB\n\n";
  }
  return h + body;
}

}  // namespace

TEST_CASE("261-profile-counts-the-first-blocks-and-their-text") {
  auto reader = temp_reader("profile.traceg", three_blocks());
  trace::KernelProfile head = trace::profile_kernel(reader, 2);
  CHECK_EQ(head.blocks, uint64_t(2));
  CHECK(!head.complete);
  CHECK_EQ(head.warp_insts, uint64_t(6));
  CHECK_EQ(head.thread_insts, uint64_t(6 * 32));
  CHECK_EQ(head.by_space[isa::kMemGlobal], uint64_t(2));
  CHECK_EQ(head.global_bytes, uint64_t(2 * 128));
  CHECK_EQ(head.global_lines, uint64_t(2));
  CHECK(head.header_bytes > 100u);
  CHECK(head.block_bytes > 100u);
  trace::KernelProfile all = trace::profile_kernel(reader, 0);  // rewinds
  CHECK(all.complete);
  CHECK_EQ(all.blocks, uint64_t(3));
  CHECK_EQ(all.warp_insts, uint64_t(9));
  CHECK_EQ(all.global_lines, uint64_t(4));  // block 2's stride-8 lanes span two lines
  CHECK_EQ(all.header_bytes, head.header_bytes);
  CHECK(all.block_bytes > head.block_bytes);
}
