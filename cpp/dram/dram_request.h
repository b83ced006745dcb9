// What crosses the DRAM channel boundary: plain values, no ownership. The
// tag is opaque to the channel (the memory partition uses it to find its
// own request record).
#pragma once
#include <cstdint>

namespace accelsim::dram {

struct DramRequest {
  uint32_t tag = 0;
  uint32_t bank = 0;
  int64_t row = 0;
  uint32_t column = 0;       // byte in row; informative
  uint32_t size_bytes = 32;  // one column command per burst (BL x bus width bytes)
  bool is_write = false;
  bool ack_write = false;    // a write also shows up in pop_completed()
  uint8_t stream = 0;        // stream slot that caused it (per-stream counters)
};

struct DramCompletion {
  uint32_t tag = 0;
  bool is_write = false;
  int64_t cycle = 0;  // DRAM cycle the last data beat left the bus
};

// A queued request as the schedulers see it.
struct QueueEntry {
  DramRequest req;
  uint32_t bursts_left = 1;  // column commands still to issue
  bool activated = false;    // an ACT was issued on its behalf (row miss)
};

}  // namespace accelsim::dram
