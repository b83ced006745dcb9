// Dense enums and request PODs shared by every cache instance (L1D, L1I, L1C,
// L2). Statistics are arrays indexed [stream][access_type][outcome], so these
// enums are contiguous from 0 and end in a COUNT sentinel.
#pragma once
#include <cstdint>

#include "base/byte_mask.h"

namespace accelsim::cache {

// Each enumerator once, with the one spelling statistics and reports use
// (GPGPU-Sim's log names for access types). X(enumerator, name, doc)
#define ACCELSIM_ACCESS_TYPES(X)                                               \
  X(GLOBAL_R, "GLOBAL_ACC_R", "global load")                                   \
  X(LOCAL_R, "LOCAL_ACC_R", "local load")                                      \
  X(CONST_R, "CONST_ACC_R", "constant load")                                   \
  X(TEXTURE_R, "TEXTURE_ACC_R", "texture load")                                \
  X(GLOBAL_W, "GLOBAL_ACC_W", "global store")                                  \
  X(LOCAL_W, "LOCAL_ACC_W", "local store")                                     \
  X(L1_WRBK, "L1_WRBK_ACC", "write-back of an evicted L1 line (arrives at L2)") \
  X(L2_WRBK, "L2_WRBK_ACC", "write-back of an evicted L2 line (goes to DRAM)")  \
  X(INST_R, "INST_ACC_R", "instruction fetch")                                 \
  X(L1_WR_ALLOC_R, "L1_WR_ALLOC_R", "fetch issued by an L1 write miss (fetch-on-write)") \
  X(L2_WR_ALLOC_R, "L2_WR_ALLOC_R", "fetch issued by an L2 write miss (fetch-on-write)")

#define ACCELSIM_OUTCOMES(X)                                                            \
  X(HIT, "HIT", "sector readable")                                                      \
  X(HIT_RESERVED, "HIT_RESERVED", "line present, sector fill already pending: merged")  \
  X(MISS, "MISS", "tag absent: a fetch was sent")                                       \
  X(RESERVATION_FAIL, "RESERVATION_FAIL", "could not take the request this cycle; retry") \
  X(SECTOR_MISS, "SECTOR_MISS", "tag present, sector not readable: a fetch was sent")   \
  X(MSHR_HIT, "MSHR_HIT", "tag absent (streaming) but a fetch of the sector is in flight: merged")

#define ACCELSIM_FAIL_REASONS(X)                                                         \
  X(LINE_ALLOC_FAIL, "LINE_ALLOC_FAIL", "every way of the set is reserved by pending fills") \
  X(MSHR_ENTRY_FAIL, "MSHR_ENTRY_FAIL", "no free MSHR entry")                            \
  X(MSHR_MERGE_FAIL, "MSHR_MERGE_FAIL", "the sector's MSHR entry already holds the merge limit") \
  X(MISS_QUEUE_FULL, "MISS_QUEUE_FULL", "no room to send the fetch / write-back / write-through")

#define ACCELSIM_ENUMERATOR(e, name, doc) e,
enum class AccessType : uint8_t { ACCELSIM_ACCESS_TYPES(ACCELSIM_ENUMERATOR) COUNT };
enum class Outcome : uint8_t { ACCELSIM_OUTCOMES(ACCELSIM_ENUMERATOR) COUNT };
enum class FailReason : uint8_t { ACCELSIM_FAIL_REASONS(ACCELSIM_ENUMERATOR) COUNT, NONE = COUNT };
#undef ACCELSIM_ENUMERATOR

enum class WritePolicy : uint8_t { WRITE_THROUGH, WRITE_BACK };

enum class WriteAllocPolicy : uint8_t {
  NO_ALLOCATE,     // write miss goes below; no line allocated
  FETCH_ON_WRITE,  // write miss allocates, fetches the sector, applies the write on fill
  WRITE_VALIDATE,  // write miss allocates and writes bytes (byte mask); no fetch
};

constexpr int kAccessTypes = static_cast<int>(AccessType::COUNT);
constexpr int kOutcomes = static_cast<int>(Outcome::COUNT);
constexpr int kFailReasons = static_cast<int>(FailReason::COUNT);

// The names of ACCELSIM_ACCESS_TYPES / _OUTCOMES / _FAIL_REASONS.
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
