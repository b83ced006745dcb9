// The memory coalescer: a pure function from one warp memory instruction to
// the line requests it needs. Lanes are coalesced in groups of
// `group_threads` (8: Pascal+ sub-warps into 32 B sectors; 32: Kepler-style
// whole warp into 128 B lines); each group's requests are separate unless
// merge_groups is set. Output goes to a caller-owned fixed buffer.
#pragma once
#include <cstdint>
#include <span>

#include "base/byte_mask.h"
#include "isa/inst_record.h"

namespace accelsim::ldst {

struct CoalescerParams {
  uint32_t group_threads = 8;   // lanes coalesced together (1..32, divides 32)
  uint32_t line_bytes = 128;    // request address granularity (<= 128)
  uint32_t sector_bytes = 32;   // sector granularity of sector_mask
  uint32_t segment_bytes = 32;  // fetch granularity: 32 = sectors touched, 128 = whole line
  bool merge_groups = false;    // one request per line for the whole warp
};

struct CoalescedRequest {
  uint64_t line_addr;    // line-aligned
  ByteMask bytes;        // bytes of the line touched by the served lanes
  uint32_t lane_mask;    // lanes this request serves (a lane spanning two lines is in both)
  uint16_t size_bytes;   // bytes to move: popcount(sector_mask) * sector_bytes
  uint8_t sector_mask;   // sectors to fetch (expanded to whole segments)
  uint8_t group;         // coalescing group index (lane / group_threads)
};

// Worst case: 32 lanes, each spanning two lines.
constexpr uint32_t kMaxCoalescedRequests = 64;
using CoalescedBuffer = CoalescedRequest[kMaxCoalescedRequests];

// Validates p (ConfigError on an unusable combination).
void check_coalescer_params(const CoalescerParams& p);

// lane_addrs[i] is lane i's byte address (only active lanes are read).
// Returns the number of requests written to out (0 for an empty mask or a
// zero-size access). Requests appear in order of group, then first lane.
uint32_t coalesce(const isa::InstRecord& inst, std::span<const uint64_t, 32> lane_addrs,
                  const CoalescerParams& p, std::span<CoalescedRequest, kMaxCoalescedRequests> out);

// The same on raw fields (no InstRecord needed).
uint32_t coalesce(uint32_t active_mask, uint32_t access_bytes, const uint64_t* lane_addrs,
                  const CoalescerParams& p, std::span<CoalescedRequest, kMaxCoalescedRequests> out);

}  // namespace accelsim::ldst
