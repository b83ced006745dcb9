// SimpleMemoryParams from the declared GPU parameters.
#include "mem/simple_memory_params.h"

#include <algorithm>

#include "config/gpu_config.h"

namespace accelsim::mem {

SimpleMemoryParams simple_memory_params(const config::GpuConfig& cfg) {
  SimpleMemoryParams p;
  p.sms = uint32_t(cfg.sm_count);
  p.l2_latency = uint64_t(cfg.l2_hit_latency);
  p.dram_latency = uint64_t(std::max(cfg.dram_latency, cfg.l2_hit_latency));
  p.l2_bytes_per_cycle = uint64_t(cfg.l2_bandwidth);
  p.dram_bytes_per_cycle = uint64_t(cfg.dram_bandwidth);
  p.l2_ways = uint32_t(cfg.l2_assoc);
  p.l2_line_bytes = uint32_t(cfg.l2_line);
  p.l2_sector_bytes = uint32_t(cfg.l2_sector);
  // Any set count: the linear index is a modulo, so a 4.5 MiB L2 keeps all of it.
  p.l2_sets = std::max<uint32_t>(1, uint32_t(cfg.l2_size / (int64_t(p.l2_line_bytes) * p.l2_ways)));
  p.l2_replacement = cfg.l2_replacement;
  p.flit_bytes = uint32_t(cfg.icnt_flit_size);
  p.memcpy_timing = cfg.memcpy_timing;
  return p;
}

}  // namespace accelsim::mem
