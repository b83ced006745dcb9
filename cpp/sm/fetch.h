// Fetch/decode: refills the instruction buffers of warps whose buffer ran
// empty, a few warps per cycle, through the instruction cache (perfect, or a
// tag array whose misses add a fixed penalty).
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "cache/tag_array.h"
#include "sm/sm_params.h"
#include "sm/warp.h"
#include "stats/sm_counters.h"

namespace accelsim::sm {

class FetchUnit {
 public:
  explicit FetchUnit(const FetchParams& p);
  // Room for every warp slot's request (a reused slot may briefly hold two).
  void resize(size_t warps) { ring_.assign(2 * warps, 0); }
  // Warp `slot` ran out of decoded instructions (once per refill).
  void request(uint16_t slot) {
    ring_[(head_ + size_) % ring_.size()] = slot;
    ++size_;
  }
  bool idle() const { return size_ == 0; }
  // One fetch cycle: serves the oldest requests; true if any warp was fetched for.
  bool cycle(std::vector<Warp>& warps, Cycle now);
  // The warps the last cycle() filled (their buffers are no longer empty).
  std::span<const uint16_t> fetched() const { return {fetched_.data(), fetched_count_}; }
  void invalidate();
  // Per stream slot: SM event counters, and L1I [access type][outcome].
  void count_into(stats::SmCounters* events, uint64_t* l1i) { events_ = events, l1i_ = l1i; }

 private:
  uint64_t fetch_latency(const Warp& w, Cycle now);
  void count_l1i(const Warp& w, bool hit);

  stats::SmCounters* events_ = nullptr;
  uint64_t* l1i_ = nullptr;

  uint32_t width_, ibuffer_entries_;
  uint64_t miss_latency_;
  std::vector<uint16_t> ring_;  // warps waiting for a fetch, oldest first
  std::vector<uint16_t> fetched_;  // width_ entries
  size_t fetched_count_ = 0;
  size_t head_ = 0, size_ = 0;
  std::unique_ptr<cache::TagArray> icache_;  // null = perfect
};

}  // namespace accelsim::sm
