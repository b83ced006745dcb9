// 01x: the resolved config as text (config/config_text.h), the CUDA runtime
// library's way to get the launcher's config without Python.
#include "base/error.h"
#include "config/config_text.h"
#include "tests/harness.h"

using namespace accelsim;

TEST_CASE("011-config-text-round-trips-every-field") {
  config::GpuConfig c;
  c.name = "custom one";
  c.sm_count = 7;
  c.core_clock = 1234.56789012345;
  c.exec_units.push_back({"sp", 4, 6, 2, 32, {"sp", "fp"}});
  c.opcode_units.emplace_back("HMMA", "sp");
  c.shmem_carveouts = {0, 8192, 65536};
  config::GpuConfig back = config::from_text(config::to_text(c), "t");
  CHECK_EQ(config::to_text(back), config::to_text(c));
  CHECK_EQ(back.name, std::string("custom one"));
  CHECK_EQ(back.core_clock, c.core_clock);
  CHECK_EQ(back.exec_units.at(0).classes.size(), size_t(2));
}

TEST_CASE("012-config-text-errors-name-the-line") {
  CHECK_THROWS(config::from_text("", "t"), ConfigError);
  CHECK_THROWS(config::from_text("accelsim-config 99\n", "t"), ConfigError);
  CHECK_THROWS(config::from_text("accelsim-config 1\nsm_count x\n", "t"), ConfigError);
  CHECK_THROWS(config::from_text("accelsim-config 1\nno_such_key 1\n", "t"), ConfigError);
  CHECK_THROWS(config::from_text("accelsim-config 1\nsm_count 0\n", "t"), ConfigError);  // validated
  try {
    config::from_text("accelsim-config 1\n\nexec_unit sp 4\n", "cfg.txt");
    CHECK(false);
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()).find("cfg.txt:3") != std::string::npos);
  }
}
