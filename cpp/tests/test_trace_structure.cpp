// 23x: thread-block structure, old layout, rewind, ISA tables and the errors
// the reference leaves to asserts.
#include "base/error.h"
#include "tests/harness.h"
#include "tests/test_trace_util.h"

using namespace accelsim;
using namespace accelsim::trace;
using namespace accelsim::testing;

namespace {

// The TraceError reading all of `text` raises (fails the test if none).
TraceError error_of(const std::string& name, const std::string& text) {
  try {
    KernelTraceReader r = temp_reader(name, text);
    ThreadBlockTrace tb;
    while (r.next_block(tb)) {
    }
  } catch (const TraceError& e) {
    return e;
  }
  throw accelsim::testing::Failure(name + ": expected a TraceError");
}

std::string old_header() {
  std::string h = header(1, 64);
  return h.replace(h.find("tracer version = 1"), 18, "tracer version = 1.2");
}

}  // namespace

TEST_CASE("231-old-layout-interleaved-warps-grouped") {
  std::string body =
      "#BEGIN_TB\nthread block = 0,0,0\n"
      "0 0 0 1 0000 ffffffff 1 R1 MOV 0 0\n"
      "0 0 0 0 0000 ffffffff 1 R1 MOV 0 0\n"
      "0 0 0 1 0010 ffffffff 0 EXIT 0 0\n"
      "0 0 0 0 0010 ffffffff 1 R2 LDG.E.64 1 R4 8 1 0x100 8\n"
      "0 0 0 0 0020 ffffffff 0 EXIT 0 0\n#END_TB\n";
  KernelTraceReader r = temp_reader("old.traceg", old_header() + body);
  CHECK_EQ(r.info().tracer_version, 1);
  ThreadBlockTrace tb;
  CHECK(r.next_block(tb));
  CHECK_EQ(tb.num_warps(), 2u);
  CHECK_EQ(tb.warp_begin[1], 3u);
  CHECK_EQ(tb.warp_begin[2], 5u);
  CHECK_EQ(tb.insts[1].pc, 0x10u);
  CHECK_EQ(int(tb.insts[1].warp), 0);
  CHECK_EQ(tb.addrs[tb.insts[1].addr_offset + 31], 0x100u + 31 * 8);
  CHECK_EQ(int(tb.insts[3].warp), 1);
  CHECK(!r.next_block(tb));
  r.rewind();
  CHECK(r.next_block(tb));
  CHECK_EQ(tb.insts.size(), 5u);
}

TEST_CASE("232-partial-warp-exit-coverage") {
  std::string ok = header(4, 40) +
                   "#BEGIN_TB\nwarp = 1\ninsts = 1\n0000 000000ff 0 EXIT 0 0\n"
                   "warp = 0\ninsts = 2\n0000 ffffffff 0 EXIT 0 0\n0010 00000000 0 NOP 0 0\n#END_TB\n";
  // warp 0 ends with NOP, not EXIT
  TraceError e = error_of("exit1.traceg", ok);
  CHECK_EQ(e.field(), std::string("EXIT"));
  std::string bad = header(4, 40) +
                    "#BEGIN_TB\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n"
                    "warp = 1\ninsts = 1\n0000 0000ffff 0 EXIT 0 0\n#END_TB\n";
  e = error_of("exit2.traceg", bad);  // 8 threads in warp 1, 16 lanes exit
  CHECK_EQ(e.field(), std::string("EXIT"));
  CHECK_EQ(e.line(), 22);
}

TEST_CASE("233-errors-name-line-and-field") {
  TraceError e = error_of("op.traceg", header(5) + one_warp("0090 ffffffff 0 FROB 0 0 0\n", 1));
  CHECK_EQ(e.field(), std::string("opcode"));
  CHECK_EQ(e.line(), 22);
  CHECK(std::string(e.what()).find("sm_70.isa") != std::string::npos);
  e = error_of("n.traceg", header(5) + one_warp("0090 ffffffff 2 R1 R2 MOV 0 0 0\n", 1));
  CHECK_EQ(e.field(), std::string("dest_num"));
  e = error_of("i.traceg", header(5) + one_warp("0090 ffffffff 1 R1 MOV 0 0 0\n", 2));
  CHECK_EQ(e.field(), std::string("insts"));
  CHECK_EQ(e.line(), 21);
  e = error_of("t.traceg", header(5) + "#BEGIN_TB\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n");
  CHECK_EQ(e.field(), std::string("#END_TB"));
  e = error_of("g.traceg", header(5) + one_warp("", 0) + one_warp("", 0));
  CHECK_EQ(e.field(), std::string("grid dim"));
  std::string h = header(5);
  e = error_of("bv.traceg", h.replace(h.find("version = 70"), 12, "version = 99") + one_warp("", 0));
  CHECK_EQ(e.field(), std::string("binary version"));
  CHECK_EQ(e.line(), 7);
}

TEST_CASE("234-command-list") {
  write_temp("kernel-1.traceg", header(5) + one_warp("", 0));
  std::string list = write_temp("kernelslist.g",
                                "MemcpyHtoD,0x00007f7393700000,32768\n\nkernel-1.traceg\nMemcpyDtoH,0x1,4\n");
  auto cmds = read_command_list(list);
  CHECK_EQ(cmds.size(), 3u);
  CHECK(cmds[0].kind == Command::Kind::MemcpyHtoD);
  CHECK_EQ(cmds[0].address, 0x00007f7393700000ull);
  CHECK(cmds[1].kind == Command::Kind::Kernel);
  CHECK_EQ(cmds[1].line, 3);
  CHECK(cmds[2].kind == Command::Kind::Other);
  CHECK_THROWS(read_command_list(write_temp("kl2.g", "kernel-404.traceg\n")), TraceError);
  CHECK_THROWS(read_command_list(write_temp("kl3.g", "MemcpyHtoD,zz,1\n")), TraceError);
}

TEST_CASE("235-isa-table-include-override-and-set-unit") {
  std::string base = write_temp("base.isa", "FADD sp\nLDG mem global load\n");
  std::string derived = write_temp("derived.isa", "include base.isa  # shared rows\nFADD dp\nHMMA mma\n");
  isa::IsaTable t = isa::IsaTable::load(derived);
  CHECK_EQ(t.name(), std::string("derived"));
  CHECK_EQ(t.size(), 3u);
  CHECK_EQ(int(t.info(uint16_t(t.find("FADD"))).unit), int(isa::kUnitDp));
  CHECK_EQ(int(t.info(uint16_t(t.find("HMMA"))).unit), int(isa::kFirstCustomUnit));
  CHECK_EQ(t.unit_names().back(), std::string("mma"));
  t.set_unit("LDG", "tex");
  CHECK_EQ(int(t.info(uint16_t(t.find("LDG"))).unit), int(isa::kUnitTex));
  CHECK_THROWS(t.set_unit("NOPE", "sp"), TraceError);
  CHECK_EQ(t.find("NOPE"), -1);
  (void)base;
}

TEST_CASE("236-bundled-versions") {
  const isa::IsaRegistry& reg = isa_registry();
  CHECK_EQ(reg.for_version(70, "x", 1).name(), std::string("sm_70"));
  CHECK_EQ(reg.for_version(61, "x", 1).name(), std::string("sm_60"));
  CHECK_EQ(reg.for_version(52, "x", 1).name(), std::string("sm_50"));
  CHECK(reg.for_version(86, "x", 1).find("LDGSTS") >= 0);
  CHECK_THROWS(reg.for_version(99, "x", 1), TraceError);
}

TEST_CASE("237-registry-unit-overrides") {
  isa::IsaRegistry reg(accelsim::testing::isa_dir(), {{"MOV", "int"}, {"LDGSTS", "tex"}});
  const isa::IsaTable& volta = reg.for_version(70, "x", 1);
  CHECK_EQ(int(volta.info(uint16_t(volta.find("MOV"))).unit), int(isa::kUnitInt));
  const isa::IsaTable& ampere = reg.for_version(80, "x", 1);
  CHECK_EQ(int(ampere.info(uint16_t(ampere.find("LDGSTS"))).unit), int(isa::kUnitTex));
  CHECK_THROWS(isa::IsaRegistry(accelsim::testing::isa_dir(), {{"NOTANOP", "int"}}), TraceError);
}
