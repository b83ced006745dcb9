// Everything an LD/ST unit is built from, so one can be built alone (tests)
// as the caches, crossbar and DRAM channels are. ldst_params() derives it from
// a GpuConfig; nothing else in the unit reads the GPU's config.
#pragma once
#include <cstdint>

#include "cache/cache.h"
#include "config/gpu_config.h"
#include "ldst/coalescer.h"

namespace accelsim::ldst {

struct LdstParams {
  // The L1D serves a whole line (its sectors) per access: groups merge.
  CoalescerParams coalescer{8, 128, 32, 32, true};
  uint32_t direct_segment_bytes = 32;  // fetch segment of requests that bypass the L1D
  uint32_t queue_depth = 1;        // issued memory instructions waiting to start
  bool write_through = true;       // stores go below at once (and update a hit line)
  // L1D: its parameters at the configured size; the set count stays fixed
  // when the adaptive L1 / shared split resizes it (ways change).
  bool l1d_enabled = true;
  cache::CacheParams l1d;
  uint32_t l1d_sets = 64;
  uint32_t l1d_banks = 1;
  uint32_t l1d_port_sectors = 4;   // sectors the L1D data port moves per cycle
  uint64_t l1d_hit_latency = 28;
  // Thread addresses the address (tag) stage takes per cycle for global and
  // local accesses (the tagged path; shared and constant accesses skip it).
  uint32_t address_rate = 32;
  // shared memory
  uint32_t shmem_banks = 32;
  uint64_t shmem_latency = 24;
  // constant cache (tag array; perfect = every access hits)
  bool perfect_const = false;
  uint32_t l1c_sets = 64, l1c_assoc = 4, l1c_line = 64;
  uint64_t l1c_hit_latency = 8;
  uint64_t l2_hit_latency = 200;   // a constant miss costs an L2 hit on top

  // The L1D's parameters at `bytes` (kernel boundary); ConfigError when
  // `bytes` is not a whole number of ways.
  cache::CacheParams l1d_at(int64_t bytes, uint32_t stream_slots) const;
};

LdstParams ldst_params(const config::GpuConfig& cfg);

}  // namespace accelsim::ldst
