// PTX front end: parsing, emulation of one block (values, reconvergence,
// records and addresses), and the errors bad input raises.
#include <cstring>
#include <string>

#include "harness.h"
#include "isa/isa_table.h"
#include "ptx/emulator.h"
#include "ptx/opcode_table.h"
#include "ptx/program.h"
#include "ptx/ptx_error.h"
#include "ptx_test_util.h"

using namespace accelsim;
using namespace accelsim::ptx;

namespace {

// out[tid] = tid < 8 ? tid * 3 : -tid, then one common store of 1 to flag[tid].
const char* kDiverge = R"(
.version 8.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 k_out, .param .u64 k_flag)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [k_out];
  ld.param.u64 %rd2, [k_flag];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 8;
  @!%p1 bra $L_else;
  mul.lo.s32 %r2, %r1, 3;
  bra.uni $L_join;
$L_else:
  neg.s32 %r2, %r1;
$L_join:
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r2;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], 1;
  ret;
}
)";

using Fixture = testing::PtxTables;

}  // namespace

TEST_CASE("101-parse-registers-and-labels") {
  Fixture f;
  auto m = parse_module(kDiverge, "k.ptx", f.ops);
  const Function* k = m->find("k");
  CHECK(k && k->entry);
  CHECK_EQ(k->params.size(), size_t(2));
  CHECK_EQ(k->params[1].offset, 8u);
  CHECK_EQ(k->regs.size(), size_t(2 + 5 + 6));
  CHECK_EQ(int(k->insts[4].op), int(Op::kBra));
  CHECK_EQ(k->insts[4].ops[0].imm, 7);  // $L_else
}

// One 32-thread block of the divergent kernel, on fresh device memory.
static Launch diverge_launch(Fixture& f) {
  auto m = parse_module(kDiverge, "k.ptx", f.ops);
  Launch L;
  L.prog = prepare(m, "k", f.isa, f.low, 70);
  L.kernel = "k";
  L.block = {32, 1, 1};
  L.mem = std::make_shared<DeviceMemory>();
  return L;
}

TEST_CASE("102-divergent-branch-reconverges-at-post-dominator") {
  Fixture f;
  Launch L = diverge_launch(f);
  uint64_t out = L.mem->allocate(128), flag = L.mem->allocate(128);
  L.params.resize(16);
  std::memcpy(&L.params[0], &out, 8);
  std::memcpy(&L.params[8], &flag, 8);
  CtaEmulator emu(L);
  BlockRecords recs;
  emu.run(0, recs);
  for (int t = 0; t < 32; ++t) {
    int32_t v;
    L.mem->read(out + 4 * t, &v, 4);
    CHECK_EQ(v, t < 8 ? t * 3 : -t);
  }
  // the join block runs once for the whole warp: its stores carry all 32 lanes
  int full_stores = 0, stg = f.isa.find("STG");
  for (const isa::InstRecord& r : recs.insts) {
    if (r.opcode != stg) continue;
    CHECK_EQ(r.active_mask, 0xffffffffu);
    CHECK(r.flags & isa::kFlagHasAddrs);
    CHECK_EQ(recs.addrs[r.addr_offset + 5], (full_stores == 0 ? out : flag) + 20);
    ++full_stores;
  }
  CHECK_EQ(full_stores, 2);
  // ld.param records nothing; the two sides of the branch carry their masks
  bool saw_then = false, saw_else = false;
  for (const isa::InstRecord& r : recs.insts) {
    saw_then |= r.active_mask == 0xffu;
    saw_else |= r.active_mask == 0xffffff00u;
  }
  CHECK(saw_then && saw_else);
}

TEST_CASE("103-out-of-bounds-store-names-thread-and-line") {
  Fixture f;
  Launch L = diverge_launch(f);
  uint64_t out = L.mem->allocate(64);  // 16 ints for 32 threads
  uint64_t flag = L.mem->allocate(128);
  L.params.resize(16);
  std::memcpy(&L.params[0], &out, 8);
  std::memcpy(&L.params[8], &flag, 8);
  CtaEmulator emu(L);
  BlockRecords recs;
  bool thrown = false;
  try {
    emu.run(0, recs);
  } catch (const PtxError& e) {
    thrown = true;
    CHECK_EQ(e.line(), 22);
    CHECK(std::string(e.what()).find("thread (16,0,0)") != std::string::npos);
  }
  CHECK(thrown);
}

// An unknown modifier parses (the function keeps it as unsupported) and the
// launch names its line, column and spelling.
TEST_CASE("104-unknown-modifier-carries-line-and-column-to-the-launch") {
  Fixture f;
  std::string bad = kDiverge;
  bad.replace(bad.find("neg.s32"), 7, "neg.q32");
  bool thrown = false;
  auto m = parse_module(bad, "bad.ptx", f.ops);
  try {
    call_graph(*m, "k");
  } catch (const PtxError& e) {
    thrown = true;
    CHECK_EQ(e.line(), 18);
    CHECK_EQ(e.column(), 3);
    CHECK_EQ(e.token(), std::string("neg.q32"));
  }
  CHECK(thrown);
}

// A module whose kernel b calls a .func g that holds an instruction the
// parser kept as unsupported (Function::unsupported): launches of b fail
// naming that instruction's line, a is untouched.
TEST_CASE("105-an-unsupported-instruction-stops-only-the-kernels-that-reach-it") {
  Fixture f;
  const char* text = R"(
.version 8.0
.target sm_75
.address_size 64
.func g()
{
  ret;
}
.visible .entry a()
{
  ret;
}
.visible .entry b()
{
  call g, ();
  ret;
}
)";
  auto parsed = parse_module(text, "m.ptx", f.ops);
  auto m = std::make_shared<Module>(*parsed);
  for (Function& fn : m->funcs)
    if (fn.name == "g") fn.unsupported = {7, 3, "frob.u32", "unknown opcode 'frob'"};
  CHECK_EQ(call_graph(*m, "a").size(), size_t(1));
  CHECK(prepare(m, "a", f.isa, f.low, 70) != nullptr);
  bool thrown = false;
  try {
    prepare(m, "b", f.isa, f.low, 70);
  } catch (const PtxError& e) {
    thrown = true;
    CHECK_EQ(e.line(), 7);
    CHECK_EQ(e.column(), 3);
    CHECK_EQ(e.token(), std::string("frob.u32"));
    const std::string what = e.what();
    CHECK(what.find("unknown opcode 'frob' (in .func g, which .entry b calls)") != std::string::npos);
  }
  CHECK(thrown);
  CHECK_THROWS(call_graph(*m, "nope"), PtxError);
}
