#include "sim/occupancy.h"

#include <algorithm>

#include "base/error.h"

namespace accelsim::sim {

namespace {
struct Limit {
  uint32_t ctas;
  const char* name;
};

uint32_t pick_carveout(const config::GpuConfig& cfg, uint64_t needed) {
  if (!cfg.adaptive_l1_shmem) return uint32_t(cfg.shmem_size);
  if (needed == 0) return 0;
  std::vector<int64_t> options = cfg.shmem_carveouts;
  if (options.empty()) options = {cfg.shmem_size};
  std::sort(options.begin(), options.end());
  for (int64_t o : options)
    if (uint64_t(o) >= needed && o <= cfg.shmem_size) return uint32_t(o);
  return uint32_t(cfg.shmem_size);
}
}  // namespace

Occupancy compute_occupancy(const config::GpuConfig& cfg, const trace::KernelInfo& k) {
  Occupancy o;
  uint32_t ws = uint32_t(cfg.warp_size);
  o.warps_per_cta = uint32_t((k.block.count() + ws - 1) / ws);
  o.threads_per_cta = o.warps_per_cta * ws;
  uint64_t unit = uint64_t(cfg.register_allocation_unit);
  uint64_t regs_per_warp = (uint64_t(k.nregs) * ws + unit - 1) / unit * unit;
  o.registers_per_cta = uint32_t(regs_per_warp * o.warps_per_cta);
  if (o.warps_per_cta == 0) throw ConfigError("block", "kernel '" + k.name + "' has empty blocks");
  if (o.threads_per_cta > cfg.max_threads_per_sm)
    throw ConfigError("max_threads_per_sm", "a CTA of '" + k.name + "' has more threads than an SM holds");
  if (o.registers_per_cta > cfg.registers_per_cta || o.registers_per_cta > cfg.registers_per_sm)
    throw ConfigError("registers_per_cta", "a CTA of '" + k.name + "' needs " +
                                               std::to_string(o.registers_per_cta) + " registers");
  if (k.shmem_bytes > cfg.shmem_per_cta || k.shmem_bytes > cfg.shmem_size)
    throw ConfigError("shmem_per_cta", "a CTA of '" + k.name + "' needs " +
                                           std::to_string(k.shmem_bytes) + " B of shared memory");
  uint32_t big = UINT32_MAX;
  Limit limits[] = {
      {uint32_t(cfg.max_threads_per_sm / o.threads_per_cta), "threads"},
      {uint32_t(cfg.max_threads_per_sm / ws / o.warps_per_cta), "warps"},
      {uint32_t(cfg.max_ctas_per_sm), "ctas"},
      {o.registers_per_cta ? uint32_t(cfg.registers_per_sm / o.registers_per_cta) : big, "registers"},
      {k.shmem_bytes ? uint32_t(cfg.shmem_size / k.shmem_bytes) : big, "shmem"},
  };
  Limit best = limits[0];
  for (const Limit& l : limits)
    if (l.ctas < best.ctas) best = l;
  o.ctas_per_sm = best.ctas;
  o.limiter = best.name;
  o.shmem_carveout = pick_carveout(cfg, uint64_t(k.shmem_bytes) * o.ctas_per_sm);
  if (k.shmem_bytes && o.shmem_carveout / k.shmem_bytes < o.ctas_per_sm) {
    o.ctas_per_sm = o.shmem_carveout / k.shmem_bytes;
    o.limiter = "shmem";
  }
  o.theoretical = double(o.ctas_per_sm * o.warps_per_cta) / double(cfg.max_threads_per_sm / ws);
  return o;
}

}  // namespace accelsim::sim
