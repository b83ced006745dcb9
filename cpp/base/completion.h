// A result the SM must retire at a given cycle: a register write (releases the
// scoreboard) or a store acknowledgement (lets the warp finish).
#pragma once
#include <cstdint>

#include "base/ready_heap.h"

namespace accelsim {

struct Completion {
  enum Kind : uint8_t { kRegWrite, kStoreAck };
  uint16_t warp = 0;
  uint16_t reg = 0;
  Kind kind = kRegWrite;
};

using CompletionQueue = ReadyHeap<Completion>;

}  // namespace accelsim
