// Everything the detailed memory model (crossbar, L2 slices, DRAM channels,
// copy engines) is built from, as a plain struct: each part's own parameters
// plus the few figures that tie them together. detailed_memory_params()
// derives it from a GpuConfig; nothing in the model reads the GPU's config.
#pragma once
#include <cstdint>

#include "cache/cache.h"
#include "dram/dram_config.h"
#include "icnt/crossbar_config.h"
#include "mem/address_map.h"

namespace accelsim::config {
struct GpuConfig;
}

namespace accelsim::mem {

struct DetailedMemoryParams {
  uint32_t sms = 1;                   // request-network sources
  // Clock periods in picoseconds: the core clock (the model's tick and the
  // SMs' response stamps) and the three domains inside the model.
  uint64_t core_period_ps = 1000;
  uint64_t icnt_period_ps = 1000;
  uint64_t l2_period_ps = 1000;
  uint64_t dram_period_ps = 1000;
  uint32_t partitions = 1;            // DRAM channels
  uint32_t slices_per_partition = 1;  // L2 slices sharing one channel
  uint32_t queue_entries = 8;         // per slice: requests waiting for the cache
  uint32_t rop_latency = 0;           // L2 cycles through each slice's ROP pipe
  uint32_t dram_fixed_latency = 0;    // L2 cycles from a slice's miss queue to its controller
  uint32_t slice_bytes_per_cycle = 32;  // each slice's sector accesses per L2 cycle, in bytes
  uint32_t far_latency = 0;           // L2 cycles a miss on the other half of a split L2 adds (0: undivided)
  uint32_t pool_capacity = 1024;      // requests in flight at once (send() refuses beyond)
  uint64_t copy_ps_per_kilobyte = 0;  // host link rate of each copy engine
  bool memcpy_timing = true;          // false: copies take no time and touch no L2
  cache::CacheParams l2_slice;        // one slice's cache; each slice gets its own name
  AddressMapParams address_map;
  icnt::CrossbarConfig request_network;  // SMs -> slices
  icnt::CrossbarConfig reply_network;    // slices -> SMs
  dram::DramChannelConfig dram;          // every channel's

  uint32_t slices() const { return partitions * slices_per_partition; }
};

DetailedMemoryParams detailed_memory_params(const config::GpuConfig& cfg);

}  // namespace accelsim::mem
