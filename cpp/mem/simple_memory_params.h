// What the simple memory model (fixed latencies, bytes-per-cycle limits, one
// L2 tag array) is built from. simple_memory_params() derives it from a
// GpuConfig; nothing in the model reads the GPU's config.
#pragma once
#include <cstdint>
#include <string>

namespace accelsim::config {
struct GpuConfig;
}

namespace accelsim::mem {

struct SimpleMemoryParams {
  uint32_t sms = 1;
  uint64_t l2_latency = 0;           // core cycles of an L2 hit
  uint64_t dram_latency = 0;         // core cycles of a DRAM access (>= l2_latency)
  uint64_t l2_bytes_per_cycle = 1;   // aggregate limits, core cycles
  uint64_t dram_bytes_per_cycle = 1;
  // The whole L2 as one tag array (linear set index).
  uint32_t l2_sets = 1;              // any count (linear index: line modulo sets)
  uint32_t l2_ways = 1;
  uint32_t l2_line_bytes = 128;
  uint32_t l2_sector_bytes = 32;
  std::string l2_replacement = "lru";
  uint32_t flit_bytes = 32;          // how packets would be cut (statistics only)
  bool memcpy_timing = true;         // a host-to-device copy warms L2
};

SimpleMemoryParams simple_memory_params(const config::GpuConfig& cfg);

}  // namespace accelsim::mem
