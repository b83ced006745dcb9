#include "dram/bank_queue.h"

#include "base/error.h"

namespace accelsim::dram {

BankQueue::BankQueue(uint32_t capacity, uint32_t banks) : slots_(capacity), banks_(banks) {
  if (banks > 256) throw ConfigError("dram_banks", "must be 1..256");
  free_.reserve(capacity);
  for (uint32_t i = capacity; i > 0; --i) free_.push_back(static_cast<int32_t>(i - 1));
}

int32_t BankQueue::push(const QueueEntry& e, int64_t open_row) {
  const int32_t s = free_.back();
  free_.pop_back();
  Bank& b = banks_[e.req.bank];
  slots_[s] = Slot{e, next_seq_++, b.tail, kNil};
  if (b.tail == kNil) {
    b.head = s;
  } else {
    slots_[b.tail].next = s;
  }
  b.tail = s;
  queued_.put(e.req.bank, true);
  if (e.req.row == open_row && b.hits++ == 0) with_hits_.put(e.req.bank, true);
  ++size_;
  writes_ += e.req.is_write;
  return s;
}

void BankQueue::remove(int32_t slot, int64_t open_row) {
  Slot& s = slots_[slot];
  Bank& b = banks_[s.e.req.bank];
  if (s.prev == kNil) {
    b.head = s.next;
  } else {
    slots_[s.prev].next = s.next;
  }
  if (s.next == kNil) {
    b.tail = s.prev;
  } else {
    slots_[s.next].prev = s.prev;
  }
  if (b.head == kNil) queued_.put(s.e.req.bank, false);
  if (s.e.req.row == open_row && --b.hits == 0) with_hits_.put(s.e.req.bank, false);
  writes_ -= s.e.req.is_write;
  free_.push_back(slot);
  --size_;
}

void BankQueue::row_opened(uint32_t bank, int64_t row) {
  uint32_t hits = 0;
  for (int32_t s = banks_[bank].head; s != kNil; s = slots_[s].next) hits += slots_[s].e.req.row == row;
  banks_[bank].hits = hits;
  with_hits_.put(bank, hits > 0);
}

}  // namespace accelsim::dram
