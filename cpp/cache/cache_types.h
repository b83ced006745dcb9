// Dense enums and request PODs shared by every cache instance (L1D, L1I, L1C,
// L2). Statistics are arrays indexed [stream][access_type][outcome], so these
// enums are contiguous from 0 and end in a COUNT sentinel.
#pragma once
#include <cstdint>

#include "base/byte_mask.h"

namespace accelsim::cache {

enum class AccessType : uint8_t {
  GLOBAL_R,
  LOCAL_R,
  CONST_R,
  TEXTURE_R,
  GLOBAL_W,
  LOCAL_W,
  L1_WRBK,        // write-back of an evicted L1 line (arrives at L2)
  L2_WRBK,        // write-back of an evicted L2 line (goes to DRAM)
  INST_R,
  L1_WR_ALLOC_R,  // fetch issued by an L1 write miss (fetch-on-write)
  L2_WR_ALLOC_R,  // fetch issued by an L2 write miss (fetch-on-write)
  COUNT
};

enum class Outcome : uint8_t {
  HIT,
  HIT_RESERVED,      // line present, sector fill already pending: merged
  MISS,              // tag absent: a fetch was sent
  RESERVATION_FAIL,  // could not take the request this cycle; retry
  SECTOR_MISS,       // tag present, sector not readable: a fetch was sent
  MSHR_HIT,          // tag absent (streaming) but a fetch of the sector is in flight: merged
  COUNT
};

enum class FailReason : uint8_t {
  LINE_ALLOC_FAIL,  // every way of the set is reserved by pending fills
  MSHR_ENTRY_FAIL,  // no free MSHR entry
  MSHR_MERGE_FAIL,  // the sector's MSHR entry already holds the merge limit
  MISS_QUEUE_FULL,  // no room to send the fetch / write-back / write-through
  COUNT,
  NONE = COUNT
};

enum class WritePolicy : uint8_t { WRITE_THROUGH, WRITE_BACK };

enum class WriteAllocPolicy : uint8_t {
  NO_ALLOCATE,     // write miss goes below; no line allocated
  FETCH_ON_WRITE,  // write miss allocates, fetches the sector, applies the write on fill
  WRITE_VALIDATE,  // write miss allocates and writes bytes (byte mask); no fetch
};

constexpr int kAccessTypes = static_cast<int>(AccessType::COUNT);
constexpr int kOutcomes = static_cast<int>(Outcome::COUNT);
constexpr int kFailReasons = static_cast<int>(FailReason::COUNT);

const char* access_type_name(AccessType t);
const char* outcome_name(Outcome o);
const char* fail_reason_name(FailReason r);

inline bool is_write(AccessType t) {
  return t == AccessType::GLOBAL_W || t == AccessType::LOCAL_W || t == AccessType::L1_WRBK ||
         t == AccessType::L2_WRBK;
}

// One access to one sector of one line. A POD: the caller routes the reply by
// `tag` (e.g. an index into its own pool of in-flight loads).
struct CacheRequest {
  uint64_t line_addr = 0;  // line-aligned byte address
  ByteMask bytes;          // bytes of the line touched (writes: bytes written)
  uint32_t tag = 0;        // opaque to the cache, handed back by fill()
  AccessType type = AccessType::GLOBAL_R;
  uint8_t sector = 0;      // sector index within the line
  uint8_t stream = 0;      // stream slot for per-stream counters (< stream_slots)
  uint8_t pad = 0;
};

// What the cache sends to the level below (fetches, write-throughs,
// write-backs). For a fetch, the reply is fill(line_addr, sector).
struct OutRequest {
  uint64_t line_addr = 0;
  ByteMask bytes;          // writes: bytes carried; fetches: the sector's bytes
  uint32_t tag = 0;        // write-through / no-allocate writes: the original tag
  AccessType type = AccessType::GLOBAL_R;
  uint8_t sector_mask = 0; // sectors covered
  uint8_t stream = 0;
  bool write = false;      // true: carries data down, no reply expected from fill()
};

struct AccessResult {
  Outcome outcome = Outcome::HIT;
  FailReason fail = FailReason::NONE;  // set only for RESERVATION_FAIL
};

}  // namespace accelsim::cache

namespace accelsim::cache {

// One CacheRequest per sector of a coalesced line request (sector_mask bit
// s -> sector s), in sector order; the bytes stay line-relative. Returns the
// number written (<= 8). For the LD/ST unit feeding a sectored cache.
inline uint32_t split_sectors(uint64_t line_addr, uint8_t sector_mask, const ByteMask& bytes,
                              AccessType type, uint32_t tag, uint8_t stream, CacheRequest (&out)[8]) {
  uint32_t n = 0;
  for (uint32_t s = 0; s < 8; ++s) {
    if (!(sector_mask >> s & 1)) continue;
    CacheRequest& r = out[n++];
    r = CacheRequest{};
    r.line_addr = line_addr;
    r.bytes = bytes;
    r.tag = tag;
    r.type = type;
    r.sector = static_cast<uint8_t>(s);
    r.stream = stream;
  }
  return n;
}

}  // namespace accelsim::cache
