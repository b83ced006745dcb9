// Pending register writes of one warp. Registers are the trace's numbers + 1
// (R0 -> 1, RZ -> 256); RZ never blocks. A fixed bit array: no allocation.
#pragma once
#include <array>
#include <cstdint>

#include "isa/inst_record.h"

namespace accelsim::sm {

class Scoreboard {
 public:
  static constexpr uint16_t kRz = 256;

  void reserve(uint16_t reg) {
    if (tracked(reg)) bits_[reg >> 6] |= bit(reg);
  }
  void release(uint16_t reg) {
    if (tracked(reg)) bits_[reg >> 6] &= ~bit(reg);
  }
  bool pending(uint16_t reg) const { return tracked(reg) && (bits_[reg >> 6] & bit(reg)); }
  // True when the instruction reads or overwrites a register still being written.
  bool collides(const isa::InstRecord& in) const {
    if (pending(in.dst)) return true;
    for (int i = 0; i < 4; ++i)
      if (pending(in.src[i])) return true;
    return false;
  }
  bool empty() const {
    for (uint64_t w : bits_)
      if (w) return false;
    return true;
  }
  void clear() { bits_ = {}; }

 private:
  static bool tracked(uint16_t reg) { return reg != isa::kNoReg && reg < kRz; }
  static uint64_t bit(uint16_t reg) { return uint64_t(1) << (reg & 63); }
  std::array<uint64_t, 4> bits_{};  // regs 1..255
};

}  // namespace accelsim::sm
