// One resident warp: a cursor into its thread block's decoded trace, its
// instruction buffer (a window of that trace), scoreboard and wait states.
#pragma once
#include <cstdint>

#include "base/time.h"

#include "sm/scoreboard.h"
#include "isa/inst_record.h"

namespace accelsim::sm {

struct Warp {
  // Fields ordered to keep the struct at 96 bytes (it is indexed per issue).
  const isa::InstRecord* insts = nullptr;  // this warp's instructions
  uint32_t count = 0;                        // how many (streamed block: buffered now)
  uint32_t next_issue = 0;                   // first instruction not yet issued
  uint32_t decoded_end = 0;                  // ibuffer = [next_issue, decoded_end)
  uint32_t end = 0;                          // count once final; UINT32_MAX while more will come
  Cycle decode_ready{0};                     // cycle the ibuffer contents may issue
  uint64_t age = 0;                          // launch order (GTO "oldest")
  Scoreboard scoreboard;
  uint32_t pending_writes = 0;               // results in flight (registers)
  uint32_t pending_stores = 0;               // stores not yet acknowledged
  uint16_t cta_slot = 0;
  uint16_t warp_in_cta = 0;
  uint8_t scheduler = 0;
  uint8_t stream = 0;                        // stream slot of its kernel (statistics)
  bool active = false;                       // slot holds a live warp
  bool at_barrier = false;
  bool waits_on_register = false;            // head collided; cleared by a writeback
  bool finished = false;                     // all issued and drained
  bool candidate = false;                    // may issue once decoded: see Sm::refresh_candidate
  // The head passed the scoreboard (0 again when it issues): kHeadClear, or
  // kHeadClearMem when it goes to the LD/ST unit, so a scheduler pass that
  // meets a full LD/ST queue need not load every ready warp's head record.
  uint8_t head_clear = 0;
  uint32_t refill_at = UINT32_MAX;           // streamed block: next_issue that asks for more

  static constexpr uint8_t kHeadClear = 1, kHeadClearMem = 2;

  bool ibuffer_empty() const { return next_issue == decoded_end; }
  bool all_issued() const { return next_issue == end; }
  const isa::InstRecord& head() const { return insts[next_issue]; }
  bool drained() const { return pending_writes == 0 && pending_stores == 0; }
  // Every reserved register is a pending write, so a warp with none in
  // flight skips the scoreboard.
  bool head_collides() const { return pending_writes != 0 && scoreboard.collides(head()); }
};

}  // namespace accelsim::sm
