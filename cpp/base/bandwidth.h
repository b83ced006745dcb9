// A bytes-per-cycle limiter. A transfer larger than one cycle's budget is
// allowed to start and puts the link in debt, so long-run throughput is exact
// (a 128 B line over a 64 B/cycle port occupies it for two cycles).
#pragma once
#include <cstdint>

#include "base/time.h"

namespace accelsim {

class BandwidthLimiter {
 public:
  explicit BandwidthLimiter(uint64_t bytes_per_cycle) : bpc_(bytes_per_cycle ? bytes_per_cycle : 1) {}

  uint64_t bytes_per_cycle() const { return bpc_; }

  // True when a new transfer may start in cycle `now`.
  bool can_send(Cycle now) const { return busy_until_ <= now.count() * bpc_; }

  // Starts a transfer of `bytes` (call only after can_send). The link is busy
  // until the bytes have drained at bpc bytes per cycle.
  void consume(Cycle now, uint64_t bytes) {
    uint64_t start = now.count() * bpc_;
    if (busy_until_ > start) start = busy_until_;
    busy_until_ = start + bytes;
  }

  bool try_send(Cycle now, uint64_t bytes) {
    if (!can_send(now)) return false;
    consume(now, bytes);
    return true;
  }

  // First cycle at which can_send() becomes true.
  Cycle next_free_cycle() const { return Cycle((busy_until_ + bpc_ - 1) / bpc_); }

  void reset() { busy_until_ = 0; }

 private:
  uint64_t bpc_;
  uint64_t busy_until_ = 0;  // in byte-time units: cycle * bpc
};

}  // namespace accelsim
