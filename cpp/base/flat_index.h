// A fixed-capacity open-addressed map from a 64-bit key to a small integer
// (linear probing, at most half full, backward-shift deletion so there are no
// tombstones). For hot-path lookups that must not allocate: MSHR entries by
// sector address, cache lines by line address.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace accelsim {

class FlatIndex {
 public:
  explicit FlatIndex(size_t max_keys) {
    size_t slots = std::bit_ceil(max_keys * 2 + 2);
    value_.assign(slots, -1);
    key_.assign(slots, 0);
    mask_ = slots - 1;
  }

  // The value stored for key, or -1.
  int32_t find(uint64_t key) const {
    for (uint64_t s = home(key);; s = (s + 1) & mask_) {
      if (value_[s] < 0) return -1;
      if (key_[s] == key) return value_[s];
    }
  }

  // Precondition: key absent, fewer than max_keys stored, value >= 0.
  void insert(uint64_t key, int32_t value) {
    uint64_t s = home(key);
    while (value_[s] >= 0) s = (s + 1) & mask_;
    value_[s] = value;
    key_[s] = key;
  }

  // No-op when the key is absent.
  void erase(uint64_t key) {
    uint64_t s = home(key);
    for (; value_[s] >= 0; s = (s + 1) & mask_)
      if (key_[s] == key) break;
    if (value_[s] < 0) return;
    uint64_t hole = s;
    for (uint64_t j = (hole + 1) & mask_; value_[j] >= 0; j = (j + 1) & mask_) {
      // j may fill the hole only if its home is not cyclically in (hole, j].
      if (((j - home(key_[j])) & mask_) < ((j - hole) & mask_)) continue;
      value_[hole] = value_[j];
      key_[hole] = key_[j];
      hole = j;
    }
    value_[hole] = -1;
  }

  void clear() { std::fill(value_.begin(), value_.end(), -1); }

 private:
  uint64_t home(uint64_t k) const { return ((k ^ (k >> 29)) * 0x9E3779B97F4A7C15ull >> 20) & mask_; }

  std::vector<int32_t> value_;  // -1 = empty slot
  std::vector<uint64_t> key_;
  uint64_t mask_ = 0;
};

}  // namespace accelsim
