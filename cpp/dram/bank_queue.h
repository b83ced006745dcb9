// A DRAM request queue organised by bank. Entries live in a fixed pool
// (allocated once) and are linked, oldest first, into one list per bank; each
// bank also keeps the number of its entries that hit the open row. A
// scheduler therefore looks at one list head (or first hit) per bank each
// cycle rather than at every queued request, and only at the banks that
// have requests (or hits): two bit sets say which.
#pragma once
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dram/dram_request.h"

namespace accelsim::dram {

// A set of banks (at most 256, the configuration's limit).
class BankSet {
 public:
  void put(uint32_t b, bool in) {
    const uint64_t bit = uint64_t{1} << (b % 64);
    words_[b / 64] = in ? words_[b / 64] | bit : words_[b / 64] & ~bit;
  }
  // Calls f(bank) for each bank in the set, lowest first.
  template <class F>
  void for_each(F&& f) const {
    for (uint32_t k = 0; k < words_.size(); ++k)
      for (uint64_t w = words_[k]; w; w &= w - 1) f(k * 64 + uint32_t(std::countr_zero(w)));
  }

 private:
  std::array<uint64_t, 4> words_{};
};

class BankQueue {
 public:
  static constexpr int32_t kNil = -1;

  BankQueue(uint32_t capacity, uint32_t banks);

  size_t size() const { return size_; }
  size_t writes() const { return writes_; }  // queued writes (the rest are reads)
  size_t capacity() const { return slots_.size(); }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ >= slots_.size(); }
  uint32_t bank_count() const { return static_cast<uint32_t>(banks_.size()); }

  // Caller checks full(). `open_row` is the entry's bank's open row (or kNoRow).
  int32_t push(const QueueEntry& e, int64_t open_row);
  void remove(int32_t slot, int64_t open_row);
  // The bank's row changed: recount (or clear) its hits.
  void row_opened(uint32_t bank, int64_t row);
  void row_closed(uint32_t bank) {
    banks_[bank].hits = 0;
    with_hits_.put(bank, false);
  }

  int32_t head(uint32_t bank) const { return banks_[bank].head; }
  int32_t next(int32_t slot) const { return slots_[slot].next; }
  uint32_t hits(uint32_t bank) const { return banks_[bank].hits; }
  const BankSet& queued_banks() const { return queued_; }     // a non-empty list
  const BankSet& banks_with_hits() const { return with_hits_; }  // hits() > 0
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
  BankSet queued_;
  BankSet with_hits_;
  size_t size_ = 0;
  size_t writes_ = 0;
  uint64_t next_seq_ = 0;
};

}  // namespace accelsim::dram
