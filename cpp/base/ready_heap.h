// A min-heap of events keyed by the cycle they become due. Storage is reused,
// so a warmed-up heap allocates nothing per event.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/time.h"

namespace accelsim {

template <class T>
class ReadyHeap {
 public:
  struct Entry {
    Cycle ready;
    uint64_t seq;  // FIFO among equal ready cycles: deterministic order
    T item;
  };
  static constexpr Cycle kNever = Cycle::max();

  void push(Cycle ready, const T& item) {
    heap_.push_back(Entry{ready, seq_++, item});
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  bool due(Cycle now) const { return !heap_.empty() && heap_.front().ready <= now; }
  Cycle next_ready() const { return heap_.empty() ? kNever : heap_.front().ready; }
  // Removes and returns the earliest entry.
  T pop() {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    T item = heap_.back().item;
    heap_.pop_back();
    return item;
  }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  void clear() { heap_.clear(); }

 private:
  static bool later(const Entry& a, const Entry& b) {
    return a.ready != b.ready ? a.ready > b.ready : a.seq > b.seq;
  }
  std::vector<Entry> heap_;
  uint64_t seq_ = 0;
};

}  // namespace accelsim
