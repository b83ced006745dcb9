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

// GPGPU-Sim's PTX-mode table: the config's ptx_latency_* / ptx_initiation_*
// per class; 24-bit multiplies take one cycle more than mul / mad. Then the
// SASS per-opcode classes from sass_latency_* / sass_initiation_*.
std::array<isa::UnitTiming, isa::kLatTableSize> ptx_timing(const config::GpuConfig& cfg) {
  std::array<isa::UnitTiming, isa::kLatTableSize> t{};
  auto set = [&](isa::PtxLatClass c, int64_t lat, int64_t init) {
    t[c] = isa::UnitTiming{uint32_t(lat), uint32_t(init)};
  };
  set(isa::kLatIntAdd, cfg.ptx_latency_int_add, cfg.ptx_initiation_int_add);
  set(isa::kLatIntMax, cfg.ptx_latency_int_max, cfg.ptx_initiation_int_max);
  set(isa::kLatIntMul, cfg.ptx_latency_int_mul, cfg.ptx_initiation_int_mul);
  set(isa::kLatIntMad, cfg.ptx_latency_int_mad, cfg.ptx_initiation_int_mad);
  set(isa::kLatIntDiv, cfg.ptx_latency_int_div, cfg.ptx_initiation_int_div);
  set(isa::kLatIntShfl, cfg.ptx_latency_int_shfl, cfg.ptx_initiation_int_shfl);
  set(isa::kLatIntMul24, cfg.ptx_latency_int_mul + 1, cfg.ptx_initiation_int_mul + 1);
  set(isa::kLatIntMad24, cfg.ptx_latency_int_mad + 1, cfg.ptx_initiation_int_mad + 1);
  set(isa::kLatFpAdd, cfg.ptx_latency_fp_add, cfg.ptx_initiation_fp_add);
  set(isa::kLatFpMax, cfg.ptx_latency_fp_max, cfg.ptx_initiation_fp_max);
  set(isa::kLatFpMul, cfg.ptx_latency_fp_mul, cfg.ptx_initiation_fp_mul);
  set(isa::kLatFpMad, cfg.ptx_latency_fp_mad, cfg.ptx_initiation_fp_mad);
  set(isa::kLatFpDiv, cfg.ptx_latency_fp_div, cfg.ptx_initiation_fp_div);
  set(isa::kLatDpAdd, cfg.ptx_latency_dp_add, cfg.ptx_initiation_dp_add);
  set(isa::kLatDpMax, cfg.ptx_latency_dp_max, cfg.ptx_initiation_dp_max);
  set(isa::kLatDpMul, cfg.ptx_latency_dp_mul, cfg.ptx_initiation_dp_mul);
  set(isa::kLatDpMad, cfg.ptx_latency_dp_mad, cfg.ptx_initiation_dp_mad);
  set(isa::kLatDpDiv, cfg.ptx_latency_dp_div, cfg.ptx_initiation_dp_div);
  set(isa::kLatSfu, cfg.ptx_latency_sfu, cfg.ptx_initiation_sfu);
  set(isa::kLatTensor, cfg.ptx_latency_tensor, cfg.ptx_initiation_tensor);
  // SASS per-opcode classes: 0 stays 0 (UnitSet::build puts the unit's own there)
  set(isa::kLatHalf, cfg.sass_latency_half, cfg.sass_initiation_half);
  set(isa::kLatMufuEx2, cfg.sass_latency_mufu_ex2, cfg.sass_initiation_mufu_ex2);
  set(isa::kLatMufuLg2, cfg.sass_latency_mufu_lg2, cfg.sass_initiation_mufu_lg2);
  set(isa::kLatMufuRsq, cfg.sass_latency_mufu_rsq, cfg.sass_initiation_mufu_rsq);
  set(isa::kLatMufuRcp, cfg.sass_latency_mufu_rcp, cfg.sass_initiation_mufu_rcp);
  set(isa::kLatMufuSin, cfg.sass_latency_mufu_sin, cfg.sass_initiation_mufu_sin);
  set(isa::kLatMufuCos, cfg.sass_latency_mufu_cos, cfg.sass_initiation_mufu_cos);
  set(isa::kLatMufuSqrt, cfg.sass_latency_mufu_sqrt, cfg.sass_initiation_mufu_sqrt);
  return t;
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
  if (cfg.register_bank_conflicts) {
    p.register_banks = uint32_t(cfg.register_banks);
    p.register_ports = uint32_t(cfg.register_port_throughput);
    p.operand_collectors = uint32_t(cfg.operand_collector_units);
    p.register_reuse = cfg.register_reuse_cache;
  }
  p.ptx_timing = ptx_timing(cfg);
  p.adaptive_l1_shmem = cfg.adaptive_l1_shmem;
  p.unified_l1_shmem_size = cfg.unified_l1_shmem_size;
  p.l1d_size = cfg.l1d_size;
  p.fetch = fetch_params(cfg);
  p.ldst = ldst::ldst_params(cfg);
  return p;
}

}  // namespace accelsim::sm
