// A fixed-capacity FIFO: storage is allocated once at construction, push and
// pop never allocate. Used for DRAM return queues and interconnect buffers;
// entries carry no time (TimedQueue is the one whose entries become ready).
// Slots are rounded up to a power of two so indexing is a mask, not a divide;
// the logical capacity stays exactly what was asked for.
#pragma once
#include <bit>
#include <cstddef>
#include <memory>

namespace accelsim {

template <typename T>
class RingBuffer {
 public:
  // Slots are default-initialised, not value-initialised: for plain structs
  // the memory stays untouched (not resident) until first used.
  explicit RingBuffer(size_t capacity)
      : slots_(std::make_unique_for_overwrite<T[]>(std::bit_ceil(capacity == 0 ? size_t{1} : capacity))),
        mask_(std::bit_ceil(capacity == 0 ? size_t{1} : capacity) - 1),
        cap_(capacity) {}

  size_t size() const { return size_; }
  size_t capacity() const { return cap_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ >= cap_; }

  // Returns false (and changes nothing) when full.
  bool push(const T& v) {
    if (full()) return false;
    slots_[(head_ + size_) & mask_] = v;
    ++size_;
    return true;
  }
  const T& front() const { return slots_[head_]; }
  T& front() { return slots_[head_]; }
  const T& at(size_t i) const { return slots_[(head_ + i) & mask_]; }
  void pop() {
    head_ = (head_ + 1) & mask_;
    --size_;
  }

 private:
  std::unique_ptr<T[]> slots_;
  size_t mask_;
  size_t cap_;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace accelsim
