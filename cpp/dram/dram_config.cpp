#include "dram/dram_config.h"

#include "base/error.h"
#include "config/gpu_config.h"

namespace accelsim::dram {
namespace {
uint32_t u32(int64_t v) { return static_cast<uint32_t>(v); }
}  // namespace

DramChannelConfig DramChannelConfig::from_config(const config::GpuConfig& cfg) {
  DramChannelConfig c;
  c.timing = DramTiming::from_config(cfg);
  c.banks = u32(cfg.dram_banks);
  c.bank_groups = u32(cfg.dram_bank_groups);
  c.read_queue = u32(cfg.dram_queue);
  c.write_queue = u32(cfg.dram_write_queue);
  c.drain_high = u32(cfg.dram_write_drain_high);
  c.drain_low = u32(cfg.dram_write_drain_low);
  c.return_queue = u32(cfg.dram_return_queue);
  c.bus_width = u32(cfg.dram_bus_width);
  c.burst_length = u32(cfg.dram_burst_length);
  c.data_command_ratio = u32(cfg.dram_data_command_ratio);
  c.dual_bus = cfg.dram_dual_bus;
  c.refresh_per_bank = cfg.dram_refresh_per_bank;
  c.scheduler = cfg.dram_scheduler;
  c.validate();
  return c;
}

void DramChannelConfig::validate() const {
  if (banks == 0 || banks > 256) throw ConfigError("dram_banks", "must be 1..256");
  if (bank_groups == 0 || banks % bank_groups != 0)
    throw ConfigError("dram_bank_groups", "must divide dram_banks");
  if (read_queue == 0) throw ConfigError("dram_queue", "must be >= 1");
  if (return_queue == 0) throw ConfigError("dram_return_queue", "must be >= 1");
  if (write_queue > 0 && (drain_high > write_queue || drain_low >= drain_high))
    throw ConfigError("dram_write_drain_high",
                      "need dram_write_drain_low < dram_write_drain_high <= dram_write_queue");
  if (timing[TimingParam::tREFI] > 0 && timing[TimingParam::tRFC] == 0)
    throw ConfigError("dram_tRFC", "must be > 0 when dram_tREFI is set");
  if (refresh_per_bank && timing[TimingParam::tREFI] > 0) {
    if (timing[TimingParam::tRFCpb] == 0)
      throw ConfigError("dram_tRFCpb", "must be > 0 with dram_refresh_per_bank and dram_tREFI set");
    if (timing[TimingParam::tREFI] < int64_t(banks))
      throw ConfigError("dram_tREFI", "must be >= dram_banks with dram_refresh_per_bank");
  }
  if (burst_length == 0 || data_command_ratio == 0 || bus_width == 0)
    throw ConfigError("dram_burst_length", "burst length, bus width and ratio must be >= 1");
}

}  // namespace accelsim::dram
