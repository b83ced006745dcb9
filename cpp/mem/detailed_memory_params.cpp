// DetailedMemoryParams from the declared GPU parameters.
#include "mem/detailed_memory_params.h"

#include <algorithm>
#include <cmath>

#include "base/clocked.h"
#include "config/gpu_config.h"

namespace accelsim::mem {
namespace {

// Requests in flight: a bound well above what the SMs can have outstanding
// (L1 MSHRs + direct requests) plus room for the copy engine; send()
// back-pressures if it is ever reached.
uint32_t pool_capacity(const config::GpuConfig& cfg, uint64_t slices) {
  const uint64_t per_sm = uint64_t(std::max<int64_t>(cfg.l1d_mshrs, 64)) + 64;
  return uint32_t(std::min<uint64_t>(uint64_t(cfg.sm_count) * per_sm + slices * 32, 1u << 22));
}

}  // namespace

DetailedMemoryParams detailed_memory_params(const config::GpuConfig& cfg) {
  DetailedMemoryParams p;
  p.sms = uint32_t(cfg.sm_count);
  p.core_period_ps = period_ps_from_mhz(cfg.core_clock);
  p.icnt_period_ps = period_ps_from_mhz(cfg.icnt_clock);
  p.l2_period_ps = period_ps_from_mhz(cfg.l2_clock);
  p.dram_period_ps = period_ps_from_mhz(cfg.dram_clock);
  p.partitions = uint32_t(cfg.memory_partitions);
  p.slices_per_partition = uint32_t(cfg.l2_slices_per_partition);
  p.queue_entries = uint32_t(cfg.partition_queue_entries);
  p.rop_latency = uint32_t(cfg.l2_rop_latency);
  p.dram_fixed_latency = uint32_t(cfg.dram_fixed_latency);
  p.slice_bytes_per_cycle = uint32_t(cfg.l2_slice_bandwidth);
  p.far_latency = uint32_t(cfg.l2_far_latency);
  p.pool_capacity = pool_capacity(cfg, p.slices());
  // copy_bandwidth is bytes per core cycle; the engine paces in ps per 1000 B.
  p.copy_ps_per_kilobyte =
      uint64_t(std::llround(1000.0 * double(p.core_period_ps) / double(cfg.copy_bandwidth)));
  p.memcpy_timing = cfg.memcpy_timing;
  p.address_map = AddressMapParams::from_config(cfg);
  p.request_network = icnt::request_network(cfg);
  p.reply_network = icnt::reply_network(cfg);
  p.l2_slice = cache::l2_slice_params(cfg, 1);
  p.dram = dram::DramChannelConfig::from_config(cfg);
  return p;
}

}  // namespace accelsim::mem
