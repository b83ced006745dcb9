// The next wake-up time of each of N parts of one clock domain (the L2
// slices, the DRAM channels) and which of them are due at an edge. Beside the
// per-part times it keeps a bit set of the parts that have one (idle parts
// are never looked at) and their earliest time, so an edge at which nothing is
// due costs one comparison, and one at which some are due a pass over the
// waiting parts only. During a host-to-device copy (most of a large copy
// workload's cycles) one or two of a V100's 64 slices and 32 channels work at
// a time; inside a memory-bound kernel most of them do, and the pass costs
// what a scan of every part did.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

#include "base/time.h"

namespace accelsim::mem {

class WakeSet {
 public:
  static constexpr Picoseconds kIdle = Picoseconds::max();

  // n parts, all waking at t (kIdle: none).
  void assign(size_t n, Picoseconds t) {
    wake_.assign(n, kIdle);
    armed_.assign((n + 63) / 64, 0);
    min_ = kIdle;
    stale_ = false;
    for (uint32_t i = 0; i < n; ++i) set(i, t);
  }
  size_t size() const { return wake_.size(); }
  Picoseconds at(uint32_t i) const { return wake_[i]; }
  // Part i wakes at t unless it already wakes earlier.
  void lower(uint32_t i, Picoseconds t) {
    if (t < wake_[i]) set(i, t);
  }
  // Part i next wakes at t (kIdle: not until lowered).
  void set(uint32_t i, Picoseconds t) {
    if (wake_[i] == min_ && t > min_) stale_ = true;  // it may have been the only earliest
    wake_[i] = t;
    uint64_t& word = armed_[i / 64];
    const uint64_t bit = uint64_t{1} << (i % 64);
    if (t == kIdle) {
      word &= ~bit;
      return;
    }
    word |= bit;
    if (t < min_) min_ = t;
  }
  // The parts that wake at or before t, in ascending order (the order a scan
  // of all parts ticks them in). Their times become kIdle: the caller sets
  // each one's next time after its tick.
  const std::vector<uint32_t>& take_due(Picoseconds t) {
    due_.clear();
    if (t < next()) return due_;
    Picoseconds rest = kIdle;
    for (size_t w = 0; w < armed_.size(); ++w) {
      for (uint64_t bits = armed_[w]; bits != 0; bits &= bits - 1) {
        const uint32_t i = uint32_t(w * 64 + uint32_t(std::countr_zero(bits)));
        if (wake_[i] > t) {
          rest = earliest(rest, wake_[i]);
          continue;
        }
        wake_[i] = kIdle;
        armed_[w] &= ~(uint64_t{1} << (i % 64));
        due_.push_back(i);
      }
    }
    min_ = rest;
    stale_ = false;
    return due_;
  }
  // The earliest wake-up over all parts, kIdle when none.
  Picoseconds next() {
    if (stale_) {
      min_ = kIdle;
      for (size_t w = 0; w < armed_.size(); ++w)
        for (uint64_t bits = armed_[w]; bits != 0; bits &= bits - 1)
          min_ = earliest(min_, wake_[w * 64 + uint32_t(std::countr_zero(bits))]);
      stale_ = false;
    }
    return min_;
  }

 private:
  std::vector<Picoseconds> wake_;
  std::vector<uint64_t> armed_;  // bit i: part i has a wake-up time
  Picoseconds min_ = kIdle;      // the earliest of them (exact unless stale_)
  bool stale_ = false;
  std::vector<uint32_t> due_;
};

}  // namespace accelsim::mem
