// Runs every registered test (or those whose name contains argv[1]) and ends
// with the plain "N passed, N failed" line. `--list` prints the test names,
// one per line, without running them (pytest makes one item of each).
#include <cstdio>
#include <cstring>
#include <exception>

#include "tests/harness.h"

namespace accelsim::testing {
std::vector<TestCase>& registry() {
  static std::vector<TestCase> tests;  // test registry of this executable only
  return tests;
}
}  // namespace accelsim::testing

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--list") == 0) {
    for (const auto& t : accelsim::testing::registry()) std::printf("%s\n", t.name);
    return 0;
  }
  int passed = 0, failed = 0;
  for (const auto& t : accelsim::testing::registry()) {
    if (argc > 1 && std::strstr(t.name, argv[1]) == nullptr) continue;
    try {
      t.body();
      ++passed;
      std::printf("ok   %s\n", t.name);
    } catch (const std::exception& e) {
      ++failed;
      std::printf("FAIL %s: %s\n", t.name, e.what());
    }
    std::fflush(stdout);  // a crash in the next test keeps this one's line
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
