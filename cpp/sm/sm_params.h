// Everything an SM is built from, so one can be built alone (tests) as the
// caches, crossbar and DRAM channels are: its pipeline and occupancy limits,
// fetch, execution units, schedulers, and its LD/ST unit's parameters.
// sm_params() derives it from a GpuConfig; nothing else in the SM reads the
// GPU's config.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "config/gpu_config.h"
#include "isa/ptx_latency.h"
#include "ldst/ldst_params.h"
#include "sm/exec/unit_set.h"

namespace accelsim::sm {

struct FetchParams {
  uint32_t width = 2;              // warps fetched for per cycle
  uint32_t ibuffer_entries = 2;    // decoded instructions per warp
  uint64_t miss_latency = 20;      // instruction cache miss penalty
  bool perfect_icache = false;
  uint32_t l1i_sets = 32, l1i_assoc = 4, l1i_line = 128;
};

struct SmParams {
  // occupancy limits
  uint32_t warp_size = 32;
  uint32_t max_threads = 2048;
  uint32_t max_ctas = 32;
  uint32_t registers = 65536;
  uint64_t cta_launch_latency = 0;  // cycles from a CTA's launch to its warps' first decode
  // issue
  uint32_t schedulers = 4;
  bool sub_core_model = true;       // each scheduler owns its units (else shared)
  std::string scheduler = "gto";    // see make_scheduler
  uint32_t two_level_active_warps = 8;
  uint32_t issue_width = 1;
  bool dual_issue_diff_units = false;
  std::vector<UnitKind> units;      // execution unit kinds, pipelines per SM
  // register file banks and operand collectors per SM (0 banks: reads untimed)
  uint32_t register_banks = 0;
  uint32_t register_ports = 1;      // reads per bank per cycle
  uint32_t operand_collectors = 1;
  bool register_reuse = true;       // operand reuse caches (inferred, see OperandCollector)
  // Cycles per PtxLatClass for records="ptx" records (index 0, kLatUnit, is
  // unused: those use their unit's).
  std::array<isa::UnitTiming, isa::kLatTableSize> ptx_timing{};
  // the L1D / shared memory split at a kernel boundary
  bool adaptive_l1_shmem = false;
  int64_t unified_l1_shmem_size = 0;  // bytes, L1D + shared
  int64_t l1d_size = 0;               // bytes, when the split is fixed
  FetchParams fetch;
  ldst::LdstParams ldst;
};

SmParams sm_params(const config::GpuConfig& cfg);

}  // namespace accelsim::sm
