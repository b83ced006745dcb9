// What a trace line's opcode spelling sets beyond the ISA row: the read-only
// (texture) data path flag (non-coherent loads on every generation, every LDG
// on Kepler (sm_3x), never an ordinary or a store) and the per-opcode latency
// class (MUFU by function, paired-half arithmetic).
#include <string>

#include "isa/ptx_latency.h"
#include "tests/harness.h"
#include "tests/test_trace_util.h"

using namespace accelsim;
using namespace accelsim::trace;
using namespace accelsim::testing;

namespace {
ThreadBlockTrace read_block(const std::string& name, const std::string& text) {
  KernelTraceReader r = temp_reader(name, text);
  ThreadBlockTrace tb;
  CHECK(r.next_block(tb));
  return tb;
}

std::string with_version(std::string h, int version) {
  return h.replace(h.find("binary version = 70"), 19, "binary version = " + std::to_string(version));
}

const char* kLoads =
    "0090 00000001 1 R2 LDG.E.CI 1 R2 4 0 0x100\n"
    "00a0 00000001 1 R2 LDG.E.128.CONSTANT.SYS 1 R2 16 0 0x100\n"
    "00b0 00000001 1 R2 LDG.E 1 R2 4 0 0x100\n"
    "00c0 00000001 0 STG.E 2 R2 R3 4 0 0x100\n";
}  // namespace

TEST_CASE("241-read-only-data-path-flag") {
  ThreadBlockTrace volta = read_block("ro70.traceg", header(4) + one_warp(kLoads, 4));
  CHECK(volta.insts[0].flags & isa::kFlagReadOnly);
  CHECK(volta.insts[1].flags & isa::kFlagReadOnly);
  CHECK(!(volta.insts[2].flags & isa::kFlagReadOnly));  // an ordinary global load
  CHECK(!(volta.insts[3].flags & isa::kFlagReadOnly));  // a store
  ThreadBlockTrace kepler =
      read_block("ro35.traceg", with_version(header(4), 35) + one_warp("0090 00000001 1 R2 LDG.E 1 R2 4 0 0x100\n"
                                                                        "00a0 00000001 1 R2 LD.E 1 R2 4 0 0x100\n",
                                                                        2));
  CHECK(kepler.insts[0].flags & isa::kFlagReadOnly);     // Kepler LDG = the read-only path
  CHECK(!(kepler.insts[1].flags & isa::kFlagReadOnly));  // LD = the ordinary global load
}

// The per-opcode latency class a trace line's spelling carries: MUFU by its
// function, the paired-half arithmetic, the unit's own for everything else.
TEST_CASE("262-trace-spelling-carries-its-latency-class") {
  const char* lines =
      "0090 ffffffff 1 R2 MUFU.EX2 1 R2 0\n"
      "00a0 ffffffff 1 R3 MUFU.RSQ 1 R2 0\n"
      "00b0 ffffffff 1 R4 HFMA2.MMA 2 R2 R3 0\n"
      "00c0 ffffffff 1 R5 FFMA 2 R2 R3 0\n"
      "00d0 ffffffff 1 R6 MUFU.TANH 1 R2 0\n";
  ThreadBlockTrace tb = read_block("lat.traceg", header(4) + one_warp(lines, 5));
  CHECK_EQ(int(tb.insts[0].lat_class), int(isa::kLatMufuEx2));
  CHECK_EQ(int(tb.insts[1].lat_class), int(isa::kLatMufuRsq));
  CHECK_EQ(int(tb.insts[2].lat_class), int(isa::kLatHalf));
  CHECK_EQ(int(tb.insts[3].lat_class), int(isa::kLatUnit));
  CHECK_EQ(int(tb.insts[4].lat_class), int(isa::kLatUnit));  // a function without a class of its own
}
