#include "dram/dram_timing.h"

#include <charconv>
#include <fstream>
#include <sstream>

#include "base/error.h"
#include "config/gpu_config.h"

namespace accelsim::dram {
namespace {

constexpr std::array<const char*, kTimingParamCount> kNames = {
    "tCCD", "tCCDL", "tRRD", "tRCD", "tRAS", "tRP", "tRC",
    "tCL",  "tWL",   "tCDLR", "tWR", "tRTPL", "tREFI", "tRFC", "tRFCpb"};

// GpuConfig field for each timing parameter, in enum order.
constexpr std::array<int64_t config::GpuConfig::*, kTimingParamCount> kConfigFields = {
    &config::GpuConfig::dram_tCCD,  &config::GpuConfig::dram_tCCDL, &config::GpuConfig::dram_tRRD,
    &config::GpuConfig::dram_tRCD,  &config::GpuConfig::dram_tRAS,  &config::GpuConfig::dram_tRP,
    &config::GpuConfig::dram_tRC,   &config::GpuConfig::dram_tCL,   &config::GpuConfig::dram_tWL,
    &config::GpuConfig::dram_tCDLR, &config::GpuConfig::dram_tWR,   &config::GpuConfig::dram_tRTPL,
    &config::GpuConfig::dram_tREFI, &config::GpuConfig::dram_tRFC,
    &config::GpuConfig::dram_tRFCpb};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

struct LineContext {
  const std::string& origin;
  int line;
  const std::string& key;
  [[noreturn]] void fail(const std::string& detail) const {
    throw ConfigError(key, origin + ":" + std::to_string(line) + ": " + detail);
  }
};

int64_t parse_int(const std::string& v, const LineContext& at) {
  int64_t out = 0;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || p != v.data() + v.size() || out < 0)
    at.fail("expected a non-negative integer, got '" + v + "'");
  return out;
}

// Geometry keys: name -> field; kept as a small table so the parser and the
// docs list the same keys.
struct IntKey {
  const char* name;
  int64_t DramPreset::*field;
};
constexpr std::array<IntKey, 6> kIntKeys = {{{"banks", &DramPreset::banks},
                                             {"bank_groups", &DramPreset::bank_groups},
                                             {"row_size", &DramPreset::row_size},
                                             {"bus_width", &DramPreset::bus_width},
                                             {"burst_length", &DramPreset::burst_length},
                                             {"data_command_ratio", &DramPreset::data_command_ratio}}};

// Applies one key; returns the timing index it set (or -1 for other keys) so
// the caller can check completeness.
int apply_key(DramPreset& p, const std::string& key, const std::string& value, const LineContext& at) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (key == kNames[i]) {
      p.timing.cycles[i] = parse_int(value, at);
      return static_cast<int>(i);
    }
  for (const IntKey& k : kIntKeys)
    if (key == k.name) {
      p.*k.field = parse_int(value, at);
      return -1;
    }
  if (key == "name") {
    p.name = value;
  } else if (key == "dual_bus" || key == "refresh_per_bank") {
    if (value != "0" && value != "1") at.fail("expected 0 or 1, got '" + value + "'");
    (key == "dual_bus" ? p.dual_bus : p.refresh_per_bank) = value == "1";
  } else if (key == "clock_mhz") {
    try {
      p.clock_mhz = std::stod(value);
    } catch (const std::exception&) {
      at.fail("expected a number, got '" + value + "'");
    }
  } else {
    at.fail("unknown key");
  }
  return -1;
}

}  // namespace

std::span<const char* const> timing_param_names() { return kNames; }

DramTiming DramTiming::from_config(const config::GpuConfig& cfg) {
  DramTiming t;
  for (size_t i = 0; i < kTimingParamCount; ++i) t.cycles[i] = cfg.*kConfigFields[i];
  return t;
}

DramPreset parse_dram_preset(const std::string& text, const std::string& origin) {
  DramPreset p;
  std::array<bool, kTimingParamCount> have{};
  std::istringstream in(text);
  std::string raw, seen_keys = " ";
  for (int line = 1; std::getline(in, raw); ++line) {
    const std::string body = trim(raw.substr(0, raw.find('#')));
    if (body.empty()) continue;
    const auto eq = body.find('=');
    const std::string key = trim(body.substr(0, eq));
    const LineContext at{origin, line, key};
    if (eq == std::string::npos || key.empty()) at.fail("expected 'key = value'");
    if (seen_keys.find(" " + key + " ") != std::string::npos) at.fail("key given twice");
    seen_keys += key + " ";
    const int idx = apply_key(p, key, trim(body.substr(eq + 1)), at);
    if (idx >= 0) have[static_cast<size_t>(idx)] = true;
  }
  for (size_t i = 0; i < kTimingParamCount; ++i)
    if (!have[i]) throw ConfigError(kNames[i], origin + ": missing timing key");
  return p;
}

DramPreset load_dram_preset(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw ConfigError("dram_type", path + ": cannot open DRAM preset");
  std::ostringstream ss;
  ss << f.rdbuf();
  return parse_dram_preset(ss.str(), path);
}

void apply_dram_preset(const DramPreset& preset, config::GpuConfig& cfg) {
  for (size_t i = 0; i < kTimingParamCount; ++i) cfg.*kConfigFields[i] = preset.timing.cycles[i];
  cfg.dram_banks = preset.banks;
  cfg.dram_bank_groups = preset.bank_groups;
  cfg.dram_row_size = preset.row_size;
  cfg.dram_bus_width = preset.bus_width;
  cfg.dram_burst_length = preset.burst_length;
  cfg.dram_data_command_ratio = preset.data_command_ratio;
  cfg.dram_dual_bus = preset.dual_bus;
  cfg.dram_refresh_per_bank = preset.refresh_per_bank;
}

}  // namespace accelsim::dram
