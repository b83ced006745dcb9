// 64x: DRAM timing presets as data files.
#include <string>

#include "base/error.h"
#include "config/gpu_config.h"
#include "dram/dram_timing.h"
#include "tests/harness.h"

using namespace accelsim;
using namespace accelsim::dram;

namespace {
std::string preset_path(const char* name) {
  return std::string(ACCELSIM_SOURCE_DIR) + "/configs/dram/" + name + ".txt";
}
std::string message_of(const std::string& text) {
  try {
    parse_dram_preset(text, "x.txt");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("640-presets-load-and-hbm2-matches-the-defaults") {
  for (const char* n : {"gddr5", "gddr5x", "gddr6", "hbm", "hbm2", "hbm2e", "hbm3"}) {
    const DramPreset p = load_dram_preset(preset_path(n));
    CHECK_EQ(p.name, std::string(n));
    CHECK(p.timing[TimingParam::tRC] >= p.timing[TimingParam::tRAS]);
  }
  const DramPreset hbm2 = load_dram_preset(preset_path("hbm2"));
  config::GpuConfig defaults, applied;
  applied.dram_tRCD = 99;
  apply_dram_preset(hbm2, applied);
  CHECK(DramTiming::from_config(applied).cycles == DramTiming::from_config(defaults).cycles);
  CHECK(applied.dram_dual_bus);
  const DramPreset g6 = load_dram_preset(preset_path("gddr6"));
  CHECK_EQ(g6.timing[TimingParam::tCL], int64_t{24});
  CHECK(!g6.dual_bus);
  // The faster HBMs keep the HBM2 array timing in nanoseconds (to a cycle)
  // and refresh per bank.
  for (const char* n : {"hbm2e", "hbm3"}) {
    const DramPreset p = load_dram_preset(preset_path(n));
    CHECK(p.refresh_per_bank);
    CHECK(p.timing[TimingParam::tRFCpb] > 0);
    for (TimingParam t : {TimingParam::tRCD, TimingParam::tRP, TimingParam::tRAS, TimingParam::tCL}) {
      const double ns = double(p.timing[t]) * 1000.0 / p.clock_mhz;
      const double hbm2_ns = double(hbm2.timing[t]) * 1000.0 / hbm2.clock_mhz;
      CHECK(ns >= hbm2_ns - 1e-9);
      CHECK(ns < hbm2_ns + 1000.0 / p.clock_mhz);
    }
  }
}

TEST_CASE("641-preset-errors-name-file-line-and-key") {
  const std::string bad_value = message_of("name = x\ntCL = twelve\n");
  CHECK(bad_value.find("x.txt:2") != std::string::npos);
  CHECK(bad_value.find("'tCL'") != std::string::npos);
  const std::string unknown = message_of("# c\n\ntXYZ = 3\n");
  CHECK(unknown.find("x.txt:3") != std::string::npos);
  CHECK(unknown.find("'tXYZ'") != std::string::npos);
  CHECK(message_of("tCL = 1\ntCL = 2\n").find("twice") != std::string::npos);
  CHECK(message_of("name = x\n").find("missing") != std::string::npos);
  CHECK_THROWS(load_dram_preset("/nonexistent/dram.txt"), ConfigError);
}
