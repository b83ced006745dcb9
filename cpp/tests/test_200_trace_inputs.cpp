// 242-243: trace inputs refused when they are read, not later: a kernel name
// that is not text (it reaches Python as str), a kernelslist entry that is a
// device or a pipe (reading it could block or never end).
#include <filesystem>

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

TEST_CASE("243-kernelslist-entry-that-is-not-a-regular-file-is-refused") {
  std::string list = write_temp("kl-dev.g", "kernel-dev.traceg\n");
  std::filesystem::path link = std::filesystem::path(list).parent_path() / "kernel-dev.traceg";
  std::filesystem::remove(link);
  std::filesystem::create_symlink("/dev/null", link);
  try {
    read_command_list(list);
    throw accelsim::testing::Failure("accepted /dev/null as a kernel trace");
  } catch (const TraceError& e) {
    CHECK_EQ(e.field(), std::string("kernel"));
    CHECK_EQ(e.line(), 1);
    CHECK(std::string(e.what()).find("not a regular file") != std::string::npos);
  }
}
