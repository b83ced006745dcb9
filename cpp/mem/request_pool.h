// Requests in flight below L1 in the detailed memory model: one fixed pool of
// plain records, addressed by a 32-bit id that travels through the crossbar,
// the L2 slice queues and the cache's MSHR tags. Allocated once, but left
// untouched until used (ids are handed out in order before any is reused),
// so a generous capacity costs no resident memory; alloc() and release()
// are a stack push/pop.
#pragma once
#include <cstdint>
#include <memory>

#include "base/byte_mask.h"

namespace accelsim::mem {

// Source id of requests made by the copy engine (not an SM; no reply).
inline constexpr uint16_t kCopySource = 0xFFFF;
inline constexpr uint16_t kCopyReadSource = 0xFFFE;  // device-to-host copy engine

struct InFlight {
  ByteMask bytes;          // writes/atomics: line-relative bytes written
  uint64_t line_addr = 0;  // line-aligned
  uint32_t token = 0;      // the SM's token, handed back in the response
  uint16_t sm = 0;         // requesting SM, or kCopySource
  uint16_t slice = 0;      // global L2 slice
  uint8_t sector_mask = 0; // 32 B granules asked for (base/sector_granules.h)
  uint8_t kind = 0;        // MemKind
  uint8_t issued = 0;      // granules already presented to the L2 cache
  uint8_t pending = 0;     // granules not yet served (waiting on a fill)
  uint8_t stream = 0;      // stream slot (per-stream counters)
};

// Raw storage for a record (no initialisation, so untouched pages stay
// unmapped); a record is assigned in full before it is read.
union InFlightSlot {
  InFlightSlot() {}
  InFlight rec;
};

class RequestPool {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  explicit RequestPool(uint32_t capacity)
      : recs_(new InFlightSlot[capacity]), free_(new uint32_t[capacity]), cap_(capacity) {}
  bool full() const { return used_ == cap_; }
  uint32_t in_use() const { return used_; }
  uint32_t capacity() const { return cap_; }
  // Precondition: !full(). Released ids first, then never-used ones.
  uint32_t alloc() {
    ++used_;
    return nfree_ ? free_[--nfree_] : fresh_++;
  }
  void release(uint32_t id) {
    free_[nfree_++] = id;
    --used_;
  }
  InFlight& operator[](uint32_t id) { return recs_[id].rec; }
  const InFlight& operator[](uint32_t id) const { return recs_[id].rec; }

 private:
  std::unique_ptr<InFlightSlot[]> recs_;
  std::unique_ptr<uint32_t[]> free_;  // released ids (stack), uninitialised
  uint32_t cap_, used_ = 0, nfree_ = 0, fresh_ = 0;
};

}  // namespace accelsim::mem
