#include "sim/occupancy.h"

#include <algorithm>

#include "base/error.h"
#include "config/gpu_config.h"

namespace accelsim::sim {

namespace {
struct Limit {
  uint32_t ctas;
  const char* name;
};

uint32_t pick_carveout(const OccupancyParams& p, uint64_t needed) {
  if (!p.adaptive_l1_shmem) return uint32_t(p.shmem_size);
  if (needed == 0) return 0;
  std::vector<int64_t> options = p.shmem_carveouts;
  if (options.empty()) options = {int64_t(p.shmem_size)};
  std::sort(options.begin(), options.end());
  for (int64_t o : options)
    if (uint64_t(o) >= needed && uint64_t(o) <= p.shmem_size) return uint32_t(o);
  return uint32_t(p.shmem_size);
}

// Registers, threads and shared memory of one CTA; throws when one CTA
// cannot fit on an SM at all.
void size_cta(const OccupancyParams& p, const trace::KernelInfo& k, Occupancy& o) {
  const uint32_t ws = p.warp_size;
  o.warps_per_cta = uint32_t((k.block.count() + ws - 1) / ws);
  o.threads_per_cta = o.warps_per_cta * ws;
  const uint64_t unit = p.register_allocation_unit;
  const uint64_t regs_per_warp = (uint64_t(k.nregs) * ws + unit - 1) / unit * unit;
  o.registers_per_cta = uint32_t(regs_per_warp * o.warps_per_cta);
  if (o.warps_per_cta == 0) throw ConfigError("block", "kernel '" + k.name + "' has empty blocks");
  if (o.threads_per_cta > p.max_threads_per_sm)
    throw ConfigError("max_threads_per_sm", "a CTA of '" + k.name + "' has more threads than an SM holds");
  if (o.registers_per_cta > p.registers_per_cta || o.registers_per_cta > p.registers_per_sm)
    throw ConfigError("registers_per_cta", "a CTA of '" + k.name + "' needs " +
                                               std::to_string(o.registers_per_cta) + " registers");
  if (k.shmem_bytes > p.shmem_per_cta || k.shmem_bytes > p.shmem_size)
    throw ConfigError("shmem_per_cta", "a CTA of '" + k.name + "' needs " +
                                           std::to_string(k.shmem_bytes) + " B of shared memory");
}
}  // namespace

OccupancyParams occupancy_params(const config::GpuConfig& cfg) {
  OccupancyParams p;
  p.warp_size = uint32_t(cfg.warp_size);
  p.max_threads_per_sm = uint32_t(cfg.max_threads_per_sm);
  p.max_ctas_per_sm = uint32_t(cfg.max_ctas_per_sm);
  p.registers_per_sm = uint32_t(cfg.registers_per_sm);
  p.registers_per_cta = uint32_t(cfg.registers_per_cta);
  p.register_allocation_unit = uint32_t(cfg.register_allocation_unit);
  p.shmem_size = uint64_t(cfg.shmem_size);
  p.shmem_per_cta = uint64_t(cfg.shmem_per_cta);
  p.l1d_size = uint64_t(cfg.l1d_size);
  p.adaptive_l1_shmem = cfg.adaptive_l1_shmem;
  p.unified_l1_shmem_size = uint64_t(cfg.unified_l1_shmem_size);
  p.shmem_carveouts = cfg.shmem_carveouts;
  return p;
}

Occupancy compute_occupancy(const OccupancyParams& p, const trace::KernelInfo& k) {
  Occupancy o;
  size_cta(p, k, o);
  const uint32_t big = UINT32_MAX;
  Limit limits[] = {
      {p.max_threads_per_sm / o.threads_per_cta, "threads"},
      {p.max_threads_per_sm / p.warp_size / o.warps_per_cta, "warps"},
      {p.max_ctas_per_sm, "ctas"},
      {o.registers_per_cta ? p.registers_per_sm / o.registers_per_cta : big, "registers"},
      {k.shmem_bytes ? uint32_t(p.shmem_size / k.shmem_bytes) : big, "shmem"},
  };
  Limit best = limits[0];
  for (const Limit& l : limits)
    if (l.ctas < best.ctas) best = l;
  o.ctas_per_sm = best.ctas;
  o.limiter = best.name;
  o.shmem_carveout = pick_carveout(p, uint64_t(k.shmem_bytes) * o.ctas_per_sm);
  if (k.shmem_bytes && o.shmem_carveout / k.shmem_bytes < o.ctas_per_sm) {
    o.ctas_per_sm = o.shmem_carveout / k.shmem_bytes;
    o.limiter = "shmem";
  }
  o.theoretical = double(o.ctas_per_sm * o.warps_per_cta) / double(p.max_threads_per_sm / p.warp_size);
  o.l1d_bytes = p.adaptive_l1_shmem
                    ? uint64_t(std::max<int64_t>(0, int64_t(p.unified_l1_shmem_size) - int64_t(o.shmem_carveout)))
                    : p.l1d_size;
  return o;
}

}  // namespace accelsim::sim
