// 238-239: deviations of real traces (other tracer versions and forks) that
// are read and counted instead of rejected.
#include "base/error.h"
#include "tests/harness.h"
#include "tests/test_trace_util.h"

using namespace accelsim;
using namespace accelsim::trace;
using namespace accelsim::testing;

namespace {
void read_all(KernelTraceReader& r) {
  ThreadBlockTrace tb;
  while (r.next_block(tb)) {
  }
}
}  // namespace

TEST_CASE("238-fields-after-the-immediate-are-read-and-counted-once-per-file") {
  // Header (15 lines) + block preamble: the first instruction is line 22.
  std::string body = "0000 ffffffff 1 R1 MOV 0 0 0 extra1\n0010 ffffffff 1 R2 MOV 0 0 0 7 8\n";
  KernelTraceReader r = temp_reader("t238.traceg", header(5) + one_warp(body, 2));
  read_all(r);
  const TraceWarnings& w = r.warnings();
  CHECK_EQ(w.extra_field_lines, uint64_t{2});
  CHECK_EQ(w.extra_field_line, int64_t{22});
  CHECK_EQ(w.extra_field, std::string("extra1"));
  CHECK(w.summary().find("2 instruction lines") != std::string::npos);
  r.rewind();  // re-reading counts afresh, not twice
  read_all(r);
  CHECK_EQ(r.warnings().extra_field_lines, uint64_t{2});
}

TEST_CASE("239-exit-repeating-exited-lanes-is-accepted-coverage-still-checked") {
  std::string body = "0000 0000ffff 0 EXIT 0 0\n";
  KernelTraceReader r = temp_reader("t239.traceg", header(5) + one_warp(body, 1));
  read_all(r);
  CHECK_EQ(r.warnings().exit_repeats, uint64_t{1});
  CHECK_EQ(r.warnings().exit_repeat_line, int64_t{23});
  CHECK_EQ(r.warnings().extra_field_lines, uint64_t{0});
  // Repeats never make up for lanes that never exit.
  std::string short_body = "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 2\n"
                           "0000 0000ffff 0 EXIT 0 0\n0010 0000ffff 0 EXIT 0 0\n\n#END_TB\n";
  bool threw = false;
  try {
    KernelTraceReader bad = temp_reader("t239b.traceg", header(5) + short_body);
    read_all(bad);
  } catch (const TraceError& e) {
    threw = std::string(e.field()) == "EXIT";
  }
  CHECK(threw);
}
