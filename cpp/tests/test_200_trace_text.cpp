// 242: text in a trace header that reaches Python as str is checked when the
// header is read, so no reader meets undecodable bytes later.
#include "base/error.h"
#include "tests/harness.h"
#include "tests/test_trace_util.h"

using namespace accelsim;
using namespace accelsim::trace;
using namespace accelsim::testing;

TEST_CASE("242-kernel-name-that-is-not-utf8-is-refused-at-read-time") {
  auto with_name = [](const std::string& name) {
    std::string h = header(5);
    size_t at = h.find("kernel name = ") + 14;
    return h.replace(at, h.find('\n', at) - at, name) + one_warp("", 0);
  };
  // Well-formed UTF-8 (a mangled name of a Unicode identifier) reads.
  KernelTraceReader ok = temp_reader("ok.traceg", with_name("_Z3k\xc3\xa9v"));
  CHECK_EQ(ok.info().name, std::string("_Z3k\xc3\xa9v"));
  for (const char* bad : {"_Z6vec\xff" "Add", "k\xc0\xaf", "k\xed\xa0\x80", "k\xf4\x90\x80\x80", "k\xe2\x82"}) {
    try {
      temp_reader("bad.traceg", with_name(bad));
      throw accelsim::testing::Failure(std::string("accepted ") + bad);
    } catch (const TraceError& e) {
      CHECK_EQ(e.field(), std::string("kernel name"));
      CHECK_EQ(e.line(), 1);
      CHECK(std::string(e.what()).find("not UTF-8") != std::string::npos);
    }
  }
}
