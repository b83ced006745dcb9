// Sizes and timing of one crossbar network. The GPU has two: requests from
// SMs to L2 slices and replies back (see request_network / reply_network).
#pragma once
#include <cstdint>

namespace accelsim::config {
struct GpuConfig;
}

namespace accelsim::icnt {

struct CrossbarConfig {
  uint32_t sources = 1;
  uint32_t destinations = 1;
  uint32_t flit_bytes = 32;
  uint32_t in_buffer_flits = 64;   // per source port
  uint32_t out_buffer_flits = 64;  // per destination port, in-flight flits included
  uint32_t latency = 8;            // cycles from a packet's last flit to delivery
  // Queues per input port, by destination (dst % lanes): with one, a packet
  // whose output is busy blocks the port (head-of-line blocking); with more,
  // the port sends from another queue. Order per (source, destination) holds.
  uint32_t input_lanes = 1;

  uint32_t flits_for(uint32_t size_bytes) const {
    const uint32_t f = (size_bytes + flit_bytes - 1) / flit_bytes;
    return f == 0 ? 1 : f;
  }
  void validate() const;  // throws ConfigError naming the icnt_* key
};

// SMs -> L2 slices (memory_partitions x l2_slices_per_partition).
CrossbarConfig request_network(const config::GpuConfig& cfg);
// L2 slices -> SMs.
CrossbarConfig reply_network(const config::GpuConfig& cfg);

}  // namespace accelsim::icnt
