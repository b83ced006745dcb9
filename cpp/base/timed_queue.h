// A bounded FIFO whose entries carry the time at which they become ready.
// Latency is modelled by stamping ready = now + latency at push time instead of
// counting down every cycle, so an idle queue costs nothing per cycle. `Time`
// is what the stamps count: Cycle of the owner's clock, or Picoseconds for a
// queue between two clock domains.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/time.h"

namespace accelsim {

template <class T, class Time = Cycle>
class TimedQueue {
 public:
  struct Entry {
    T item;
    Time ready_cycle;
  };

  explicit TimedQueue(size_t capacity) : slots_(capacity ? capacity : 1), cap_(capacity) {}

  size_t capacity() const { return cap_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ >= cap_; }
  size_t free_slots() const { return cap_ - size_; }

  // Returns false (and drops nothing) when full: the producer keeps the item
  // and retries, which is the back-pressure the model relies on.
  bool push(const T& item, Time ready_cycle) {
    if (full()) return false;
    slots_[(head_ + size_) % slots_.size()] = Entry{item, ready_cycle};
    ++size_;
    return true;
  }

  // FIFO order: a ready entry behind a not-yet-ready one waits (in-order pipe).
  bool front_ready(Time now) const { return size_ && slots_[head_].ready_cycle <= now; }
  const T& front() const { return slots_[head_].item; }
  T& front() { return slots_[head_].item; }
  Time front_ready_cycle() const { return slots_[head_].ready_cycle; }

  void pop() {
    head_ = (head_ + 1) % slots_.size();
    --size_;
  }

  void clear() { head_ = size_ = 0; }

  // i-th entry from the front (0 = front); for inspection and tests.
  const Entry& at(size_t i) const { return slots_[(head_ + i) % slots_.size()]; }

 private:
  std::vector<Entry> slots_;  // sized once; never grows
  size_t cap_;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace accelsim
