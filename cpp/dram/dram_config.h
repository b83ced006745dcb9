// Everything one DRAM channel needs, as a plain struct built from GpuConfig
// (or by hand in tests). Sizes are fixed here; the channel allocates its
// queues once from them.
#pragma once
#include <cstdint>
#include <string>

#include "dram/dram_timing.h"

namespace accelsim::dram {

struct DramChannelConfig {
  DramTiming timing;
  uint32_t banks = 16;
  uint32_t bank_groups = 4;
  uint32_t read_queue = 64;    // entries; the shared queue when write_queue == 0
  uint32_t write_queue = 64;   // 0 = reads and writes share read_queue
  uint32_t drain_high = 56;    // write-queue level that starts a drain
  uint32_t drain_low = 32;     // level at which the drain stops
  uint32_t return_queue = 192;
  uint32_t bus_width = 16;     // bytes per data beat
  uint32_t burst_length = 2;   // beats per burst
  uint32_t data_command_ratio = 2;  // beats per command clock (DDR = 2)
  bool dual_bus = false;
  bool refresh_per_bank = false;  // tREFI / banks apart, one bank for tRFCpb
  std::string scheduler = "frfcfs";

  // Data-bus cycles (command clock) one burst occupies: BL / ratio, >= 1.
  uint32_t burst_cycles() const {
    const uint32_t c = (burst_length + data_command_ratio - 1) / data_command_ratio;
    return c == 0 ? 1 : c;
  }
  uint32_t burst_bytes() const { return burst_length * bus_width; }

  static DramChannelConfig from_config(const config::GpuConfig& cfg);
  void validate() const;  // throws ConfigError naming the dram_* key
};

// Bank groups take the low bits of the bank number, so consecutive banks sit
// in different groups (and pay tCCD rather than tCCDL). The address map uses
// the same rule.
inline uint32_t bank_group_of(uint32_t bank, uint32_t groups) { return bank % groups; }

}  // namespace accelsim::dram
