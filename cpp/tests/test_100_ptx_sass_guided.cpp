// PTX front end, SASS-guided records (records="sass"): the templates
// apply_sass_guide builds from a PTX line -> SASS map, and what the emulator
// records from them.
#include <cstring>
#include <string>

#include "harness.h"
#include "isa/isa_table.h"
#include "ptx/emulator.h"
#include "ptx/opcode_table.h"
#include "ptx/program.h"
#include "ptx/ptx_error.h"
#include "ptx_test_util.h"
#include "ptx/sass_guided.h"

using namespace accelsim;
using namespace accelsim::ptx;

namespace {

// line 6: ld.param, 7: mov tid, 8: mul.wide, 9: add, 10: ld.global, 11: add, 12: st, 13: ret
const char* kCopy = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 k_p)
{ .reg .b32 %r<4>; .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [k_p];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r2, [%rd3];
  add.s32 %r3, %r2, 1;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

using Fixture = testing::PtxTables;

SassGuide copy_guide() {
  SassGuide g;
  g.source = "test SASS";
  g.by_line[7] = {"S2R"};
  g.by_line[8] = {"IMAD.WIDE.U32"};
  g.by_line[10] = {"ULDC.64", "LDG.E.SYS"};  // a uniform op before the access
  g.by_line[11] = {"IADD3"};
  g.by_line[12] = {"STG.E.SYS"};
  g.by_line[13] = {"EXIT"};
  return g;  // lines 6 and 9 have no SASS (folded)
}

}  // namespace

TEST_CASE("151-sass-guide-replaces-lowered-templates") {
  Fixture f;
  auto m = parse_module(kCopy, "k.ptx", f.ops);
  SassGuide g = copy_guide();
  auto p = prepare(m, "k", f.isa, f.low, 70, RecordMode::kLowered, &g);
  CHECK_EQ(p->tmpl.size(), size_t(7));
  CHECK_EQ(p->tmpl_begin.front(), 0u);
  CHECK_EQ(p->tmpl_begin[1], 0u);  // ld.param: nothing
  CHECK_EQ(p->tmpl[p->tmpl_begin[4]].opcode, uint16_t(f.isa.find("LDC")));  // ULDC on Volta
  CHECK_EQ(p->mem_tmpl[4], int16_t(1));  // the LDG carries the access, not the constant load
  CHECK_EQ(p->tmpl[p->tmpl_begin[4] + 1].access_bytes, uint8_t(4));
  CHECK_EQ(p->mem_tmpl[3], int16_t(-1));
  CHECK_EQ(p->tmpl[p->tmpl_begin[2]].opcode, uint16_t(f.isa.find("IMAD")));
}

TEST_CASE("152-sass-guided-records-carry-mask-and-addresses") {
  Fixture f;
  auto m = parse_module(kCopy, "k.ptx", f.ops);
  SassGuide g = copy_guide();
  Launch L;
  L.prog = prepare(m, "k", f.isa, f.low, 70, RecordMode::kLowered, &g);
  L.kernel = "k";
  L.block = {8, 1, 1};
  L.mem = std::make_shared<DeviceMemory>();
  uint64_t buf = L.mem->allocate(64);
  L.params.resize(8);
  std::memcpy(L.params.data(), &buf, 8);
  CtaEmulator emu(L);
  BlockRecords recs;
  emu.run(0, recs);
  CHECK_EQ(recs.insts.size(), size_t(7));  // one per SASS, lines without SASS record nothing
  int ldg = f.isa.find("LDG"), stg = f.isa.find("STG"), addressed = 0;
  for (const isa::InstRecord& r : recs.insts) {
    CHECK_EQ(r.active_mask, 0xffu);
    if (r.opcode == ldg || r.opcode == stg) {
      CHECK(r.flags & isa::kFlagHasAddrs);
      CHECK_EQ(recs.addrs[r.addr_offset + 3], buf + 12);
      ++addressed;
    } else {
      CHECK(!(r.flags & isa::kFlagHasAddrs));
    }
  }
  CHECK_EQ(addressed, 2);
  uint32_t v;
  L.mem->read(buf + 4, &v, 4);
  CHECK_EQ(v, 1u);  // the emulation itself is unchanged
}

TEST_CASE("153-sass-opcode-missing-from-the-table-is-a-ptx-error") {
  Fixture f;
  auto m = parse_module(kCopy, "k.ptx", f.ops);
  SassGuide g = copy_guide();
  g.by_line[11] = {"NOTANOP.X"};
  bool threw = false;
  try {
    prepare(m, "k", f.isa, f.low, 70, RecordMode::kLowered, &g);
  } catch (const PtxError& e) {
    threw = true;
    CHECK_EQ(e.line(), 11);
    CHECK_EQ(e.token(), std::string("NOTANOP.X"));
    CHECK_EQ(e.path(), std::string("test SASS"));
  }
  CHECK(threw);
  CHECK_EQ(sass_opcode(f.isa, "S2UR"), f.isa.find("S2R"));
  CHECK_EQ(sass_opcode(f.isa, "VOTEU"), f.isa.find("VOTE"));
  CHECK_EQ(sass_opcode(f.isa, "U"), -1);
}
