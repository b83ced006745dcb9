#include "sm/sm_params.h"

#include <algorithm>

namespace accelsim::sm {

namespace {
FetchParams fetch_params(const config::GpuConfig& cfg) {
  FetchParams f;
  f.width = uint32_t(cfg.inst_fetch_width);
  f.ibuffer_entries = uint32_t(cfg.ibuffer_entries);
  f.miss_latency = uint64_t(cfg.l1i_miss_latency);
  f.perfect_icache = cfg.perfect_inst_const_cache;
  f.l1i_assoc = uint32_t(cfg.l1i_assoc);
  f.l1i_line = uint32_t(cfg.l1i_line);
  f.l1i_sets = std::max<uint32_t>(1, uint32_t(cfg.l1i_size / (int64_t(f.l1i_line) * f.l1i_assoc)));
  return f;
}
}  // namespace

SmParams sm_params(const config::GpuConfig& cfg) {
  SmParams p;
  p.warp_size = uint32_t(cfg.warp_size);
  p.max_threads = uint32_t(cfg.max_threads_per_sm);
  p.max_ctas = uint32_t(cfg.max_ctas_per_sm);
  p.registers = uint32_t(cfg.registers_per_sm);
  p.cta_launch_latency = uint64_t(cfg.cta_launch_latency);
  p.schedulers = uint32_t(cfg.schedulers_per_sm);
  p.sub_core_model = cfg.sub_core_model;
  p.scheduler = cfg.scheduler;
  p.two_level_active_warps = uint32_t(cfg.two_level_active_warps);
  p.issue_width = uint32_t(cfg.issue_width);
  p.dual_issue_diff_units = cfg.dual_issue_diff_units;
  p.units = unit_kinds_from_config(cfg);
  p.adaptive_l1_shmem = cfg.adaptive_l1_shmem;
  p.unified_l1_shmem_size = cfg.unified_l1_shmem_size;
  p.l1d_size = cfg.l1d_size;
  p.fetch = fetch_params(cfg);
  p.ldst = ldst::ldst_params(cfg);
  return p;
}

}  // namespace accelsim::sm
