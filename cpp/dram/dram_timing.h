// DRAM timing as data: one dense table indexed by TimingParam, filled from
// the GpuConfig dram_t* values (the effective ones) or from a preset file in
// configs/dram/ (what a user or the Python layer copies into the config).
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace accelsim::config {
struct GpuConfig;
}

namespace accelsim::dram {

// All values are in DRAM command-clock cycles.
enum class TimingParam : uint8_t {
  tCCD,   // column to column, different bank group
  tCCDL,  // column to column, same bank group
  tRRD,   // activate to activate, different banks
  tRCD,   // activate to column command
  tRAS,   // activate to precharge
  tRP,    // precharge to activate
  tRC,    // activate to activate, same bank
  tCL,    // read command to first data
  tWL,    // write command to first data
  tCDLR,  // last write data to read command (write-to-read turnaround, tWTR)
  tWR,    // last write data to precharge (write recovery)
  tRTPL,  // read command to precharge
  tREFI,  // refresh interval (0 = no refresh)
  tRFC,   // refresh cycle time (all banks)
  tRFCpb, // refresh cycle time of one bank (per-bank refresh)
  count
};
inline constexpr size_t kTimingParamCount = static_cast<size_t>(TimingParam::count);

std::span<const char* const> timing_param_names();  // "tCCD", ... in enum order

struct DramTiming {
  std::array<int64_t, kTimingParamCount> cycles{};
  int64_t operator[](TimingParam p) const { return cycles[static_cast<size_t>(p)]; }
  int64_t& operator[](TimingParam p) { return cycles[static_cast<size_t>(p)]; }
  static DramTiming from_config(const config::GpuConfig& cfg);
};

// A preset file: timing plus the geometry and bus that go with it.
struct DramPreset {
  std::string name;
  DramTiming timing;
  int64_t banks = 16;
  int64_t bank_groups = 4;
  int64_t row_size = 2048;
  int64_t bus_width = 16;
  int64_t burst_length = 2;
  int64_t data_command_ratio = 2;
  bool dual_bus = false;
  bool refresh_per_bank = false;
  double clock_mhz = 0;  // command clock the timings were given for (informative)
};

// `key = value` lines, '#' comments; every key must be known and appear at
// most once; all timing keys must be present. Errors are ConfigError naming
// the key, with "file:line:" in the message.
DramPreset load_dram_preset(const std::string& path);
DramPreset parse_dram_preset(const std::string& text, const std::string& origin);

// Copies a preset into the dram_* fields of a config (dram_type included when
// the preset name is one of its choices is left to the caller).
void apply_dram_preset(const DramPreset& preset, config::GpuConfig& cfg);

}  // namespace accelsim::dram
