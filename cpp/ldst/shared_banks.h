// Shared memory bank conflicts: how many cycles (serialized bank passes) one
// warp's shared access needs, with `banks` banks of 4 B words.
//
// Rule: the warp is split into phases of 128 B of request data
// (access_bytes <= 4: one phase of 32 lanes; 8 B: two half-warps; 16 B: four
// quarter-warps), as Volta does for wide accesses. Within a phase each lane
// touches access_bytes/4 consecutive words (addresses aligned down to the
// access size); lanes reading the same word share it (broadcast); distinct
// words mapping to one bank serialize. A phase costs the largest number of
// distinct words in any bank; phases without active lanes cost nothing.
// The total is the sum over phases (0 for an empty mask).
#pragma once
#include <cstdint>
#include <span>

#include "isa/inst_record.h"

namespace accelsim::ldst {

uint32_t shared_bank_cycles(uint32_t active_mask, uint32_t access_bytes, const uint64_t* lane_addrs,
                            uint32_t banks);

inline uint32_t shared_bank_cycles(const isa::InstRecord& inst,
                                   std::span<const uint64_t, 32> lane_addrs, uint32_t banks) {
  return shared_bank_cycles(inst.active_mask, inst.access_bytes, lane_addrs.data(), banks);
}

}  // namespace accelsim::ldst
