// 00x: the declared parameters, validation and cross-field rules.
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
