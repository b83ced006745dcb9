// In-flight memory instructions of one SM: each counts the sector accesses it
// still waits for and the latest cycle one of them completes. When the count
// reaches zero the SM gets one completion (register write or store ack).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/completion.h"

namespace accelsim::ldst {

class MemOpSlots {
 public:
  struct Slot {
    Cycle ready{0};
    uint32_t remaining = 0;
    uint16_t warp = 0;
    uint16_t reg = 0;
    bool store = false;
  };

  uint32_t open(uint16_t warp, uint16_t reg, bool store) {
    uint32_t id;
    if (free_.empty()) {
      id = uint32_t(slots_.size());
      slots_.emplace_back();
    } else {
      id = free_.back();
      free_.pop_back();
    }
    slots_[id] = Slot{Cycle{0}, 0, warp, reg, store};
    ++in_use_;
    return id;
  }
  void expect(uint32_t id, uint32_t n) { slots_[id].remaining += n; }
  // `n` accesses of slot `id` complete at `ready`; closes the slot (pushing
  // its completion) when nothing else is outstanding and `sealed`.
  void done(uint32_t id, uint32_t n, Cycle ready, CompletionQueue& out) {
    Slot& s = slots_[id];
    s.ready = latest(s.ready, ready);
    s.remaining -= n;
    if (s.remaining == 0) close(id, out);
  }
  void close(uint32_t id, CompletionQueue& out) {
    const Slot& s = slots_[id];
    out.push(s.ready, Completion{s.warp, s.reg,
                                     s.store ? Completion::kStoreAck : Completion::kRegWrite});
    free_.push_back(id);
    --in_use_;
  }
  uint32_t in_use() const { return in_use_; }

 private:
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;
  uint32_t in_use_ = 0;
};

}  // namespace accelsim::ldst
