// The copy engine: a host-to-device copy (MemcpyHtoD) moves its data into L2
// as sector writes (full 64-bit addresses), one sector every
// sector_bytes / copy_bandwidth core cycles. The writes take the normal L2
// write path (write-validate: the sectors become valid and modified there),
// so a kernel that reads the copied data right after hits in L2 and the
// data reaches DRAM when the lines are evicted.
#pragma once
#include <algorithm>
#include <cstdint>

#include "base/time.h"

namespace accelsim::mem {

class CopyEngine {
 public:
  // `ps_per_kilobyte`: picoseconds per 1000 bytes (the copy rate).
  CopyEngine(uint32_t line_bytes, uint32_t sector_bytes, uint64_t ps_per_kilobyte)
      : line_(line_bytes), sector_(sector_bytes), ps_per_kb_(ps_per_kilobyte) {}

  void start(uint64_t address, uint64_t bytes, Picoseconds t) {
    cur_ = address;
    end_ = address + bytes;
    next_ps_ = t;
    if (injecting()) next_ps_ += transfer_ps(peek().bytes);
  }
  bool injecting() const { return cur_ < end_; }
  bool busy() const { return injecting() || outstanding_ > 0; }
  Picoseconds next_ps() const { return injecting() ? next_ps_ : Picoseconds::max(); }

  struct Chunk {
    uint64_t line_addr;
    uint32_t first_byte;  // line-relative
    uint32_t bytes;
    uint8_t sector;
  };
  // The next sector-sized piece (up to the sector boundary); next_ps() is
  // when it has fully arrived from the host.
  Chunk peek() const {
    const uint64_t line = cur_ & ~uint64_t(line_ - 1);
    const uint32_t off = uint32_t(cur_ - line);
    const uint32_t sector = off / sector_;
    const uint64_t stop = std::min<uint64_t>(end_, line + uint64_t(sector + 1) * sector_);
    return Chunk{line, off, uint32_t(stop - cur_), uint8_t(sector)};
  }
  // The chunk was handed to its L2 slice; the next one is due once its
  // bytes have crossed the host link.
  void advance(const Chunk& c) {
    cur_ += c.bytes;
    if (injecting()) next_ps_ += transfer_ps(peek().bytes);
    ++outstanding_;
    ++sectors_;
  }
  void finished() { --outstanding_; }
  uint64_t sectors_copied() const { return sectors_; }

 private:
  uint64_t transfer_ps(uint32_t bytes) const { return bytes * ps_per_kb_ / 1000; }

  uint32_t line_, sector_;
  uint64_t ps_per_kb_;
  uint64_t cur_ = 0, end_ = 0;
  Picoseconds next_ps_{0};
  uint64_t outstanding_ = 0;
  uint64_t sectors_ = 0;
};

}  // namespace accelsim::mem
