// PTX front end, 18x: what the PTX ISA forbids is refused at parse time with
// file, line and column (as ptxas refuses it), `trap` stops the kernel, and
// emulation that runs ahead of the timing model stops when its run says so.
#include <cstring>
#include <string>

#include "harness.h"
#include "ptx/emulator.h"
#include "ptx/isa_limits.h"
#include "ptx/program.h"
#include "ptx/ptx_error.h"
#include "ptx_test_util.h"

using namespace accelsim;
using namespace accelsim::ptx;

namespace {

using Fixture = testing::PtxTables;

const std::string kHead = ".version 8.0\n.target sm_75\n.address_size 64\n";

// The PtxError parsing `text` raises ("" message when it parses).
struct Refusal {
  std::string what;
  int64_t line = 0, column = 0;
};
Refusal refusal(Fixture& f, const std::string& text) {
  try {
    parse_module(text, "t.ptx", f.ops);
  } catch (const PtxError& e) {
    return {e.what(), e.line(), e.column()};
  }
  return {};
}
bool says(const Refusal& r, const char* words) { return r.what.find(words) != std::string::npos; }

// A guard that asks to stop at its n-th poll and allows `cycles` more cycles.
struct CountingGuard final : RunGuard {
  uint32_t polls = 0, stop_at = UINT32_MAX;
  uint64_t cycles = UINT64_MAX;
  bool stop_requested() override { return ++polls >= stop_at; }
  uint64_t cycles_left() const override { return cycles; }
};

// Warp 0 waits at a barrier that warp 1, looping for ever, never reaches.
const std::string kBarrierSpin = kHead + R"(
.visible .entry spin()
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra $L_loop;
  bar.sync 0;
  ret;
$L_loop:
  add.u32 %r2, %r2, 1;
  bra $L_loop;
}
)";

Launch launch_of(Fixture& f, const std::string& text, const char* kernel, uint32_t threads) {
  Launch L;
  L.prog = prepare(parse_module(text, "t.ptx", f.ops), kernel, f.isa, f.low, 70);
  L.kernel = kernel;
  L.block = {threads, 1, 1};
  L.mem = std::make_shared<DeviceMemory>();
  L.max_warp_insts = uint64_t(1) << 40;
  return L;
}

}  // namespace

TEST_CASE("181-pred-outside-reg-and-untyped-atom-are-refused") {
  Fixture f;
  for (const char* decl : {".visible .entry k(.param .pred p) { ret; }", ".visible .entry k() { .local .pred q; ret; }",
                           ".visible .entry k() { .shared .pred q; ret; }", ".global .pred g;\n.visible .entry k() { ret; }"}) {
    Refusal r = refusal(f, kHead + decl);
    CHECK(says(r, "must be declared in the .reg state space"));
    CHECK_EQ(r.line, 4);
    CHECK(r.column > 0);
  }
  Refusal r = refusal(f, kHead + ".visible .entry k(.param .u64 p) { .reg .u32 %r<2>; .reg .u64 %rd<2>;\n"
                                  "ld.param.u64 %rd1, [p];\natom.global.add %r1, [%rd1], 1;\nret; }");
  CHECK(says(r, "'atom' needs a type"));
  CHECK_EQ(r.line, 6);
  CHECK_EQ(r.column, 1);
}

TEST_CASE("182-out-of-range-constants-are-refused") {
  Fixture f;
  auto with = [&](const char* value) {
    return refusal(f, kHead + ".visible .entry k() { .reg .u64 %rd<2>;\nmov.u64 %rd1, " + value + ";\nret; }");
  };
  Refusal big = with("1208925819614629174706176");  // 2^80
  CHECK(says(big, "integer constant out of range"));
  CHECK_EQ(big.line, 5);
  CHECK_EQ(big.column, 15);
  CHECK(with("18446744073709551615").what.empty());  // 2^64 - 1 fits
  CHECK(with("-9223372036854775808").what.empty());
  CHECK(says(with("1e999"), "out of range"));
}

TEST_CASE("183-version-and-target-follow-the-ptx-isa-tables") {
  Fixture f;
  auto header = [&](const char* v, const char* t) {
    return refusal(f, std::string(".version ") + v + "\n.target " + t + "\n.address_size 64\n"
                      ".visible .entry k() { ret; }");
  };
  Refusal old = header("1.0", "sm_90a");
  CHECK(says(old, "PTX ISA version 1.0 does not support .target sm_90a (it needs .version 8.0 or later)"));
  CHECK_EQ(old.line, 2);
  CHECK(header("8.0", "sm_90a").what.empty());
  CHECK(says(header("6.6", "sm_70"), "not a PTX ISA version"));
  CHECK(says(header("7.10", "sm_70"), "not a PTX ISA version"));
  CHECK(header("9.5", "sm_70").what.empty());  // a newer toolkit's PTX
  CHECK(says(header("8.0", "sm_99"), "unsupported target"));
  CHECK_EQ(first_version_for("sm_75"), 63u);
  CHECK_EQ(isa_version("8.1"), 81u);
}

TEST_CASE("184-state-space-limits-are-refused-where-declared") {
  Fixture f;
  Refusal wrap = refusal(f, kHead + ".visible .entry k() {\n.shared .align 4 .b8 s[4294967296];\nret; }");
  CHECK(says(wrap, "larger than 4 GiB"));
  CHECK_EQ(wrap.line, 5);
  Refusal shared = refusal(f, kHead + ".visible .entry k() {\n.shared .align 4 .b8 s[49156];\nret; }");
  CHECK(says(shared, "49156 bytes of static .shared memory, beyond the 49152 allowed"));
  CHECK_EQ(shared.line, 5);
  Refusal bank = refusal(f, kHead + ".const .b8 a[40000];\n.const .b8 b[40000];\n.visible .entry k() { ret; }");
  CHECK(says(bank, "beyond the 64 KiB constant bank"));
  CHECK_EQ(bank.line, 5);
  const std::string params = ".visible .entry k(.param .align 4 .b8 p[32764]) { ret; }";
  CHECK(says(refusal(f, kHead + params), "beyond the 4096 bytes of parameter space"));
  CHECK(refusal(f, ".version 8.1\n.target sm_70\n.address_size 64\n" + params).what.empty());
  CHECK(says(refusal(f, ".version 8.1\n.target sm_70\n.address_size 64\n"
                        ".visible .entry k(.param .align 4 .b8 p[32768]) { ret; }"),
             "beyond the 32764 bytes"));
}

TEST_CASE("185-trap-stops-the-kernel-naming-block-thread-and-line") {
  Fixture f;
  const std::string text = kHead + R"(
.visible .entry k()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 5;
  @%p1 trap;
  ret;
}
)";
  Launch L = launch_of(f, text, "k", 32);
  CtaEmulator emu(L);
  BlockRecords recs;
  bool thrown = false;
  try {
    emu.run(0, recs);
  } catch (const PtxError& e) {
    thrown = true;
    CHECK_EQ(e.line(), 11);
    const std::string what = e.what();
    CHECK(what.find("kernel k, block (0,0,0), thread (5,0,0)") != std::string::npos);
    CHECK(what.find("trap executed") != std::string::npos);
  }
  CHECK(thrown);
}

TEST_CASE("186-emulation-stops-when-its-run-asks") {
  Fixture f;
  Launch L = launch_of(f, kBarrierSpin, "spin", 64);
  CountingGuard guard;
  guard.stop_at = 3;
  CtaEmulator emu(L);
  emu.set_guard(&guard);
  BlockRecords recs;
  bool stopped = false;
  try {
    emu.run(0, recs);  // would never end: warp 1 loops for ever
  } catch (const EmulationStopped&) {
    stopped = true;
  }
  CHECK(stopped && emu.stopped());
  CHECK_EQ(guard.polls, 3u);
}

TEST_CASE("187-run-ahead-to-a-barrier-stops-where-the-budget-ends") {
  Fixture f;
  Launch L = launch_of(f, kBarrierSpin, "spin", 64);
  CountingGuard guard;
  guard.cycles = 5000;  // records beyond this could never be timed
  CtaEmulator emu(L);
  emu.set_guard(&guard);
  emu.start(0);
  const uint64_t target[2] = {128, 128};
  emu.produce(target);  // warp 0 waits at the barrier wanting more: warp 1 runs on
  CHECK(!emu.stopped());
  CHECK(emu.produced(1) >= 128 + 5000);
  CHECK(emu.produced(1) < 128 + 5000 + 8);
  CHECK(emu.window(1).more);
}

TEST_CASE("188-run-ahead-to-a-barrier-is-bounded-without-a-budget") {
  Fixture f;
  Launch L = launch_of(f, kBarrierSpin, "spin", 64);
  CtaEmulator emu(L);  // no guard: no budget either
  emu.start(0);
  const uint64_t target[2] = {128, 128};
  emu.produce(target);  // warp 1 never reaches the barrier: memory must stay bounded
  CHECK_EQ(emu.produced(1), 128 + CtaEmulator::kRunAhead);
  CHECK(emu.window(1).more);
  const uint64_t next[2] = {128, 128 + CtaEmulator::kRunAhead};
  emu.drop(1, next[1]);
  emu.produce(next);  // its next refill goes on from there
  CHECK_EQ(emu.produced(1), next[1] + CtaEmulator::kRunAhead);
  CHECK(emu.buffered(1) <= CtaEmulator::kRunAhead + 1);
}

