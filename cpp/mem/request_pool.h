// Requests in flight below L1 in the detailed memory model: one fixed pool of
// plain records, addressed by a 32-bit id that travels through the crossbar,
// the L2 slice queues and the cache's MSHR tags. Allocated once; alloc() and
// release() are a stack push/pop.
#pragma once
#include <cstdint>
#include <vector>

#include "base/byte_mask.h"

namespace accelsim::mem {

// Source id of requests made by the copy engine (not an SM; no reply).
inline constexpr uint16_t kCopySource = 0xFFFF;

struct InFlight {
  ByteMask bytes;          // writes/atomics: line-relative bytes written
  uint64_t line_addr = 0;  // line-aligned
  uint32_t token = 0;      // the SM's token, handed back in the response
  uint16_t sm = 0;         // requesting SM, or kCopySource
  uint16_t slice = 0;      // global L2 slice
  uint8_t sector_mask = 0; // sectors asked for
  uint8_t kind = 0;        // ldst::MemKind
  uint8_t issued = 0;      // sectors already presented to the L2 cache
  uint8_t pending = 0;     // sectors not yet served (waiting on a fill)
  uint8_t stream = 0;      // stream slot (per-stream counters)
};

class RequestPool {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  explicit RequestPool(uint32_t capacity) : recs_(capacity) {
    free_.reserve(capacity);
    for (uint32_t i = capacity; i-- > 0;) free_.push_back(i);
  }
  bool full() const { return free_.empty(); }
  uint32_t in_use() const { return uint32_t(recs_.size() - free_.size()); }
  uint32_t capacity() const { return uint32_t(recs_.size()); }
  // Precondition: !full().
  uint32_t alloc() {
    uint32_t id = free_.back();
    free_.pop_back();
    return id;
  }
  void release(uint32_t id) { free_.push_back(id); }
  InFlight& operator[](uint32_t id) { return recs_[id]; }
  const InFlight& operator[](uint32_t id) const { return recs_[id]; }

 private:
  std::vector<InFlight> recs_;
  std::vector<uint32_t> free_;
};

}  // namespace accelsim::mem
