// A DRAM request queue organised by bank. Entries live in a fixed pool
// (allocated once) and are linked, oldest first, into one list per bank; each
// bank also keeps the number of its entries that hit the open row. A
// scheduler therefore looks at one list head (or first hit) per bank each
// cycle rather than at every queued request.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dram/dram_request.h"

namespace accelsim::dram {

class BankQueue {
 public:
  static constexpr int32_t kNil = -1;

  BankQueue(uint32_t capacity, uint32_t banks);

  size_t size() const { return size_; }
  size_t capacity() const { return slots_.size(); }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ >= slots_.size(); }
  uint32_t bank_count() const { return static_cast<uint32_t>(banks_.size()); }

  // Caller checks full(). `open_row` is the entry's bank's open row (or kNoRow).
  int32_t push(const QueueEntry& e, int64_t open_row);
  void remove(int32_t slot, int64_t open_row);
  // The bank's row changed: recount (or clear) its hits.
  void row_opened(uint32_t bank, int64_t row);
  void row_closed(uint32_t bank) { banks_[bank].hits = 0; }

  int32_t head(uint32_t bank) const { return banks_[bank].head; }
  int32_t next(int32_t slot) const { return slots_[slot].next; }
  uint32_t hits(uint32_t bank) const { return banks_[bank].hits; }
  const QueueEntry& entry(int32_t slot) const { return slots_[slot].e; }
  QueueEntry& entry(int32_t slot) { return slots_[slot].e; }
  uint64_t age(int32_t slot) const { return slots_[slot].seq; }  // smaller = older

 private:
  struct Slot {
    QueueEntry e;
    uint64_t seq = 0;
    int32_t prev = kNil;
    int32_t next = kNil;
  };
  struct Bank {
    int32_t head = kNil;
    int32_t tail = kNil;
    uint32_t hits = 0;
  };
  std::vector<Slot> slots_;
  std::vector<int32_t> free_;  // stack of unused slots
  std::vector<Bank> banks_;
  size_t size_ = 0;
  uint64_t next_seq_ = 0;
};

}  // namespace accelsim::dram
