// Where one SM (and its LD/ST unit, fetch, L1 caches) counts: pointers into
// the run's counter families, each laid out [stream slot][category]. Taken
// once when the GPU is wired; an event adds at `base + slot * width + k`.
#pragma once
#include <cstdint>

#include "stats/sm_counters.h"

namespace accelsim::stats {

// Why a warp that was looked at could not issue (counted per event: the SM
// is not ticked on cycles where nothing can change, so these are not cycles).
enum class StallReason : uint8_t {
  SCOREBOARD,  // head instruction waits on a register still in flight
  UNIT_BUSY,   // its execution unit has no free pipeline this cycle
  LDST_FULL,   // the LD/ST unit's queue is full
  BARRIER,     // the warp arrived at a barrier and waits for its CTA
  COUNT
};
inline constexpr int kStallReasons = int(StallReason::COUNT);
inline constexpr const char* kStallReasonNames[kStallReasons] = {"scoreboard", "unit_busy",
                                                                 "ldst_full", "barrier"};

// Instruction classes counted: the fixed ISA classes, then one "other" for
// classes a config declares beyond them.
inline constexpr int kInstClasses = 13;

struct SmStatSlots {
  SmCounters* events = nullptr;   // [slot]
  uint64_t* insts = nullptr;      // [slot][kInstClasses]
  uint64_t* stalls = nullptr;     // [slot][kStallReasons]
  uint64_t* l1i = nullptr;        // [slot][access type][outcome] (cache layout)
  uint64_t* l1c = nullptr;        // same
  uint64_t* l1d = nullptr;        // same
  uint64_t* l1d_fails = nullptr;  // [slot][access type][fail reason]
  uint32_t slots = 1;
};

}  // namespace accelsim::stats
