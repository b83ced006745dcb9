// 2xx: decoding of instruction lines and the three address encodings.
#include "base/error.h"
#include "tests/harness.h"
#include "tests/test_trace_util.h"
#include "trace/inst_decoder.h"

using namespace accelsim;
using namespace accelsim::trace;
using namespace accelsim::testing;

namespace {

ThreadBlockTrace read_one(const std::string& name, const std::string& text) {
  KernelTraceReader r = temp_reader(name, text);
  ThreadBlockTrace tb;
  CHECK(r.next_block(tb));
  CHECK(!r.next_block(tb));
  return tb;
}

// The first instruction's lane addresses (0 for inactive lanes).
std::vector<uint64_t> lanes(const ThreadBlockTrace& tb) {
  const InstRecord& r = tb.insts.at(0);
  CHECK(r.flags & kFlagHasAddrs);
  return std::vector<uint64_t>(tb.addrs.begin() + r.addr_offset, tb.addrs.begin() + r.addr_offset + 32);
}

}  // namespace

TEST_CASE("201-address-mode-0-list") {
  auto tb = read_one("m0.traceg", header(4) + one_warp("0090 00000005 1 R2 LDG.E 1 R2 4 0 0x100 0x108\n", 1));
  auto a = lanes(tb);
  CHECK_EQ(a[0], 0x100u);
  CHECK_EQ(a[1], 0u);
  CHECK_EQ(a[2], 0x108u);
  CHECK_EQ(int(tb.insts[0].mem_space), int(kMemGlobal));
  CHECK_EQ(int(tb.insts[0].access_bytes), 4);
  CHECK_EQ(tb.insts[0].dst, 3);
  CHECK_EQ(tb.insts[0].src[0], 3);
}

TEST_CASE("202-address-mode-1-base-stride") {
  auto tb = read_one("m1.traceg", header(4) + one_warp("0090 ffffffff 1 R2 LDG.E.64 1 R2 8 1 0x7f00 -8\n", 1));
  auto a = lanes(tb);
  CHECK_EQ(a[0], 0x7f00u);
  CHECK_EQ(a[31], 0x7f00u - 31 * 8);
  CHECK_EQ(int(tb.insts[0].access_bytes), 8);
}

TEST_CASE("203-address-mode-2-base-deltas-with-v5-immediate") {
  // mask 0b1011: base + 2 deltas, then the v5 immediate (not a third delta).
  auto tb = read_one("m2.traceg", header(5) + one_warp("0090 0000000b 1 R2 LDG.E.128 1 R2 16 2 0x1000 16 -48 7\n", 1));
  auto a = lanes(tb);
  CHECK_EQ(a[0], 0x1000u);
  CHECK_EQ(a[1], 0x1010u);
  CHECK_EQ(a[2], 0u);
  CHECK_EQ(a[3], 0x1010u - 48);
  CHECK_EQ(tb.insts[0].imm, 7);
  CHECK_EQ(int(tb.insts[0].access_bytes), 16);
}

TEST_CASE("204-address-modes-agree") {
  std::string m0 = "0090 ffffffff 1 R2 LDG.E 1 R2 4 0";
  std::string m2 = "0090 ffffffff 1 R2 LDG.E 1 R2 4 2 0x7f4a3c000000";
  for (int i = 0; i < 32; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " 0x%016llx", 0x7f4a3c000000ull + 4ull * i);
    m0 += buf;
    if (i) m2 += " 4";
  }
  auto a0 = lanes(read_one("a0.traceg", header(5) + one_warp(m0 + " 0\n", 1)));
  auto a1 = lanes(read_one("a1.traceg", header(5) + one_warp("0090 ffffffff 1 R2 LDG.E 1 R2 4 1 0x7f4a3c000000 4 0\n", 1)));
  auto a2 = lanes(read_one("a2.traceg", header(5) + one_warp(m2 + " 0\n", 1)));
  CHECK(a0 == a1);
  CHECK(a0 == a2);
}

TEST_CASE("205-predicated-off-and-lineinfo") {
  std::string body =
      "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
      "12 0090 00000000 1 R2 LDG.E 1 R2 4 1 0x0 0 0\n"
      "13 00a0 ffffffff 0 EXIT 0 0\n#END_TB\n";
  auto tb = read_one("p.traceg", header(5, 32, true) + body);
  const InstRecord& r = tb.insts.at(0);
  CHECK(r.flags & kFlagPredOff);
  CHECK(!(r.flags & kFlagHasAddrs));
  CHECK_EQ(r.line, 12u);
  CHECK_EQ(r.pc, 0x90u);
  CHECK_EQ(tb.insts.at(1).line, 13u);
}

TEST_CASE("206-access-width-and-flags") {
  CHECK_EQ(int(access_bytes_from_modifiers("LDG.E.U8.SYS")), 1);
  CHECK_EQ(int(access_bytes_from_modifiers("LDG.E.S16")), 2);
  CHECK_EQ(int(access_bytes_from_modifiers("LDG.E.64.SYS")), 8);
  CHECK_EQ(int(access_bytes_from_modifiers("LDG.E.128.CONSTANT.SYS")), 16);
  CHECK_EQ(int(access_bytes_from_modifiers("STG.E.SYS")), 4);
  auto tb = read_one("f.traceg", header(4) + one_warp("0090 00000001 1 R2 LDG.E.STRONG.GPU 1 R2 4 0 0x100\n"
                                                      "00a0 00000001 0 RED.E.ADD 2 R2 R3 4 0 0x100\n"
                                                      "00b0 00000001 1 R4 LDC 1 R2 0\n",
                                                      3));
  CHECK(tb.insts[0].flags & kFlagBypassL1);
  CHECK(tb.insts[0].flags & kFlagLoad);
  CHECK(tb.insts[1].flags & kFlagAtomic);
  CHECK(!(tb.insts[1].flags & kFlagBypassL1));
  CHECK_EQ(int(tb.insts[2].mem_space), int(kMemConst));
  CHECK_EQ(int(tb.insts[2].access_bytes), 4);
}

TEST_CASE("207-generic-classified-by-window") {
  CHECK_EQ(int(classify_generic(0x7f0000000100, 0x7f0000000000, 0x7f0002000000)), int(kMemShared));
  CHECK_EQ(int(classify_generic(0x7f0002000100, 0x7f0000000000, 0x7f0002000000)), int(kMemLocal));
  CHECK_EQ(int(classify_generic(0x7e0000000000, 0x7f0000000000, 0x7f0002000000)), int(kMemGlobal));
  CHECK_EQ(int(classify_generic(0x7e0000000000, 0, 0x7f0002000000)), int(kMemShared));
  auto tb = read_one("g.traceg", header(4) + one_warp("0090 00000001 1 R2 LD.E 1 R2 4 0 0x7f0002000010\n"
                                                      "00a0 00000001 0 ST.E 2 R2 R3 4 0 0x7f0000000010\n",
                                                      2));
  CHECK_EQ(int(tb.insts[0].mem_space), int(kMemLocal));
  CHECK_EQ(int(tb.insts[1].mem_space), int(kMemShared));
}

TEST_CASE("208-registers-stored-plus-one") {
  auto tb = read_one("r.traceg", header(3) + one_warp("0000 ffffffff 1 R0 IMAD.MOV.U32 2 R255 RZ 0\n", 1));
  CHECK_EQ(tb.insts[0].dst, 1);
  CHECK_EQ(tb.insts[0].src[0], 256);
  CHECK_EQ(tb.insts[0].src[1], 256);
  CHECK_EQ(tb.insts[0].src[2], kNoReg);
  CHECK_EQ(int(tb.insts[0].nsrc), 2);
}

namespace {

// The TraceError a one-instruction trace raises (its field and line).
accelsim::TraceError read_error(const std::string& name, const std::string& inst) {
  try {
    read_one(name, header(5) + one_warp(inst, 1));
  } catch (const accelsim::TraceError& e) {
    return e;
  }
  CHECK(!"no TraceError");
  return accelsim::TraceError("", 0, "", "");
}

}  // namespace

TEST_CASE("209-addresses-beyond-the-address-space-are-trace-errors") {
  // The inputs: one lane at the top of the 64-bit range; base 0x10
  // with stride -1 (lanes 17+ fall below 0); deltas running past 2^64.
  for (const char* inst : {"0090 00000001 1 R2 LDG.E 1 R2 4 0 0xfffffffffffffff0 0\n",
                           "0090 ffffffff 1 R2 LDG.E 1 R2 4 1 0x10 -1 0\n",
                           "0090 00000003 1 R2 LDG.E 1 R2 4 2 0x7f0000000000 9223372036854775807 0\n",
                           "0090 ffffffff 1 R2 LDG.E 1 R2 4 1 0x100 4611686018427387904 0\n",
                           "0090 00000001 1 R2 LDG.E.128 1 R2 16 0 0x1fffffffffffff8 0\n"}) {
    accelsim::TraceError e = read_error("top.traceg", inst);
    CHECK_EQ(e.field(), std::string("mem_addresses"));
    CHECK(e.line() > 0);
    CHECK(std::string(e.what()).find("lane") != std::string::npos);
  }
  // The last bytes below 2^57 are still fine.
  auto tb = read_one("edge.traceg", header(5) + one_warp("0090 00000001 1 R2 LDG.E 1 R2 4 0 0x1fffffffffffffc 0\n", 1));
  CHECK_EQ(lanes(tb)[0], 0x1fffffffffffffcull);
}
