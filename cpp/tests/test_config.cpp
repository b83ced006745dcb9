#include "base/error.h"
#include "config/gpu_config.h"
#include "tests/harness.h"

using namespace accelsim;

TEST_CASE("001-config-defaults-validate") {
  config::GpuConfig cfg;
  config::validate(cfg);
  CHECK_EQ(cfg.sm_count, 80);
  CHECK(config::param_decls().size() > 50);
}

TEST_CASE("002-config-range-and-choice-errors") {
  config::GpuConfig cfg;
  cfg.sm_count = 0;
  CHECK_THROWS(config::validate(cfg), ConfigError);
  cfg = {};
  cfg.scheduler = "fifo";
  CHECK_THROWS(config::validate(cfg), ConfigError);
  cfg = {};
  cfg.l2_sector = 48;
  CHECK_THROWS(config::validate(cfg), ConfigError);
}

// Cache geometry fails when the config is validated, under the user's key,
// not later inside the GPU under a component name.
TEST_CASE("003-config-cache-geometry-under-user-keys") {
  config::GpuConfig cfg;
  cfg.l1d_size = 1024;  // less than one set of 64 ways x 128 B
  try {
    config::validate(cfg);
    CHECK(false);
  } catch (const ConfigError& e) {
    CHECK_EQ(e.key(), std::string("l1d_size"));
  }
  cfg = {};
  cfg.l1d_size = 0;  // no L1D at all is allowed
  config::validate(cfg);
  cfg = {};
  cfg.memory_model = "detailed";
  cfg.l2_size = 6000 * 1024;  // 96,000 B per slice: not whole sets of 24 x 128 B
  try {
    config::validate(cfg);
    CHECK(false);
  } catch (const ConfigError& e) {
    CHECK_EQ(e.key(), std::string("l2_size"));
  }
  cfg.memory_model = "simple";  // no L2 slices in the simple model
  config::validate(cfg);
}
