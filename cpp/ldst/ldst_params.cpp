#include "ldst/ldst_params.h"

#include <algorithm>
#include <string>

#include "base/error.h"

namespace accelsim::ldst {

LdstParams ldst_params(const config::GpuConfig& cfg) {
  LdstParams p;
  p.coalescer.group_threads = uint32_t(cfg.coalescer_threads);
  p.coalescer.line_bytes = uint32_t(cfg.l1d_line);
  p.coalescer.sector_bytes = uint32_t(cfg.l1d_sector);
  // A non-sectored L1D (sector = line) fetches whole lines whatever the
  // configured segment: a fetch never covers less than one of its sectors.
  p.coalescer.segment_bytes = uint32_t(std::max(cfg.coalescer_segment, cfg.l1d_sector));
  p.direct_segment_bytes = uint32_t(cfg.coalescer_segment);
  p.coalescer.merge_groups = true;  // the L1D serves a whole line (its sectors) per access
  p.queue_depth = uint32_t(std::max<int64_t>(1, cfg.ldst_units_per_sm));
  p.l1d_enabled = cfg.l1d_enabled;
  p.write_through = cfg.l1d_write_policy == "write_through";
  const int64_t way = cfg.l1d_line * cfg.l1d_assoc;
  p.l1d_sets = way > 0 ? uint32_t(std::max<int64_t>(0, cfg.l1d_size / way)) : 0;
  // No whole set (an L1D sized only by the adaptive split, or none): l1d_at()
  // refuses every size, as building it from the config would.
  if (p.l1d_sets > 0) p.l1d = cache::l1d_params(cfg, cfg.l1d_size, 1);
  p.l1d_banks = uint32_t(std::max<int64_t>(1, cfg.l1d_banks));
  p.l1d_port_sectors = uint32_t(std::max<int64_t>(1, cfg.l1d_bandwidth / cfg.l1d_sector));
  p.l1d_hit_latency = uint64_t(cfg.l1d_hit_latency);
  p.address_rate = uint32_t(std::max<int64_t>(1, cfg.l1d_address_rate));
  p.shmem_banks = uint32_t(cfg.shmem_banks);
  p.shmem_latency = uint64_t(cfg.shmem_latency);
  p.perfect_const = cfg.perfect_inst_const_cache;
  p.l1c_assoc = uint32_t(cfg.l1c_assoc);
  p.l1c_line = uint32_t(cfg.l1c_line);
  p.l1c_sets = std::max<uint32_t>(1, uint32_t(cfg.l1c_size / (int64_t(p.l1c_line) * p.l1c_assoc)));
  p.l1c_hit_latency = uint64_t(cfg.l1c_hit_latency);
  p.l2_hit_latency = uint64_t(cfg.l2_hit_latency);
  return p;
}

cache::CacheParams LdstParams::l1d_at(int64_t bytes, uint32_t stream_slots) const {
  const int64_t way_bytes = int64_t(l1d.line_bytes) * l1d_sets;
  if (way_bytes <= 0 || bytes % way_bytes)
    throw ConfigError("l1d_size", std::to_string(bytes) + " B L1D is not a whole number of ways of " +
                                      std::to_string(l1d_sets) + " sets");
  cache::CacheParams p = l1d;
  p.size_bytes = bytes;
  p.assoc = uint32_t(bytes / way_bytes);
  p.stream_slots = stream_slots;
  return p;
}

}  // namespace accelsim::ldst
