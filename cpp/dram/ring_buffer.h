// A fixed-capacity FIFO: storage is allocated once at construction, push and
// pop never allocate. Used for DRAM return queues and interconnect buffers.
// (Generic; belongs in cpp/base once the shared bounded queues land there.)
#pragma once
#include <cstddef>
#include <vector>

namespace accelsim {

template <typename T>
class RingBuffer {
 public:
  explicit RingBuffer(size_t capacity) : slots_(capacity == 0 ? 1 : capacity), cap_(capacity) {}

  size_t size() const { return size_; }
  size_t capacity() const { return cap_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ >= cap_; }

  // Caller checks full() first; returns false (and drops nothing) if full.
  bool push(const T& v) {
    if (full()) return false;
    slots_[(head_ + size_) % slots_.size()] = v;
    ++size_;
    return true;
  }
  const T& front() const { return slots_[head_]; }
  T& front() { return slots_[head_]; }
  const T& at(size_t i) const { return slots_[(head_ + i) % slots_.size()]; }
  void pop() {
    head_ = (head_ + 1) % slots_.size();
    --size_;
  }

 private:
  std::vector<T> slots_;
  size_t cap_;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace accelsim
