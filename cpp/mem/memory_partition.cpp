#include "mem/memory_partition.h"

#include <algorithm>
#include <bit>

#include "base/bit_count.h"

namespace accelsim::mem {

MemoryPartition::MemoryPartition(const dram::DramChannelConfig& cfg, const AddressMap& amap, uint32_t id,
                                 uint32_t first_slice, uint32_t slices, uint32_t pipe_entries,
                                 uint32_t sector_bytes, std::string name)
    : channel_(cfg, std::move(name)),
      amap_(amap),
      id_(id),
      first_(first_slice),
      nslices_(slices),
      sector_bytes_(sector_bytes),
      pipe_(pipe_entries) {
  // Reads in flight are bounded by the read queue plus the return queue.
  const uint32_t n = cfg.read_queue + cfg.return_queue;
  reads_.resize(n);
  free_reads_.reserve(n);
  for (uint32_t i = n; i-- > 0;) free_reads_.push_back(i);
}

Picoseconds MemoryPartition::collect(L2Slice& s, Cycle l2_now, Picoseconds t, uint64_t latency_ps) {
  auto& mq = s.cache().miss_queue();
  if (!mq.front_ready(l2_now) || pipe_.full()) return Picoseconds{0};
  const cache::OutRequest& o = mq.front();
  const Picoseconds ready = t + latency_ps;
  pipe_.push(Bound{o.line_addr, uint16_t(s.id()), o.sector_mask, o.write, o.stream}, ready);
  mq.pop();
  return ready;
}

bool MemoryPartition::admit(const Bound& b) {
  if (!channel_.can_accept(b.write)) return false;
  if (!b.write && free_reads_.empty()) return false;
  const uint32_t first = uint32_t(std::countr_zero(b.sector_mask));
  const DecodedAddress d = amap_.map(b.line_addr + uint64_t(first) * sector_bytes_);
  dram::DramRequest r;
  r.bank = d.bank;
  r.row = int64_t(d.row);
  r.column = d.column;
  r.size_bytes = uint32_t(bit_count(b.sector_mask)) * sector_bytes_;
  r.is_write = b.write;
  r.stream = b.stream;
  if (!b.write) {
    r.tag = free_reads_.back();
    free_reads_.pop_back();
    reads_[r.tag] = Read{b.line_addr, b.slice, b.sector_mask};
  }
  channel_.push(r);
  return true;
}

bool MemoryPartition::tick(Cycle now, Picoseconds t, std::span<L2Slice> slices) {
  while (pipe_.front_ready(t) && admit(pipe_.front())) pipe_.pop();
  channel_.tick(now);
  bool filled = false;
  while (true) {
    // A finished read goes to one of this partition's slices; pop only when
    // every one of them has room (the channel has no peek).
    bool room = true;
    for (uint32_t i = 0; i < nslices_; ++i) room &= slices[first_ + i].can_take_fill();
    if (!room) {
      ++fills_blocked_;
      break;
    }
    dram::DramCompletion c;
    if (!channel_.pop_completed(int64_t(now.count()), c)) break;
    if (c.is_write) continue;
    const Read rd = reads_[c.tag];
    free_reads_.push_back(c.tag);
    L2Slice& s = slices[rd.slice];
    for (uint8_t m = rd.sector_mask; m; m &= uint8_t(m - 1))
      s.take_fill(FillItem{rd.line_addr, uint8_t(std::countr_zero(m))}, t);
    filled = true;
  }
  return filled;
}

Picoseconds MemoryPartition::next_event_ps(Picoseconds t, uint64_t period_ps) const {
  const Picoseconds soon = t + period_ps;
  Picoseconds next = Picoseconds::max();
  if (!pipe_.empty()) next = latest(soon, pipe_.front_ready_cycle());
  const int64_t ev = channel_.next_event_cycle();
  if (ev != dram::kNever) next = earliest(next, latest(soon, time_of(Cycle(uint64_t(ev)), period_ps)));
  return next;
}

}  // namespace accelsim::mem
