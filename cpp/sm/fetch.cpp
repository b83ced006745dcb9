#include "sm/fetch.h"

#include <algorithm>

#include "cache/cache_types.h"

namespace accelsim::sm {

FetchUnit::FetchUnit(const FetchParams& p)
    : width_(p.width), ibuffer_entries_(p.ibuffer_entries), miss_latency_(p.miss_latency),
      fetched_(p.width) {
  if (!p.perfect_icache)
    icache_ = std::make_unique<cache::TagArray>(p.l1i_sets, p.l1i_assoc, p.l1i_line, p.l1i_line,
                                                "lru", "linear");
}

void FetchUnit::invalidate() {
  if (!icache_) return;
  for (auto& line : icache_->lines())
    if (line.allocated) icache_->invalidate(line);
}

void FetchUnit::count_l1i(const Warp& w, bool hit) {
  cache::Outcome o = hit ? cache::Outcome::HIT : cache::Outcome::MISS;
  size_t row = size_t(w.stream) * cache::kAccessTypes + size_t(cache::AccessType::INST_R);
  ++l1i_[row * cache::kOutcomes + size_t(o)];
}

uint64_t FetchUnit::fetch_latency(const Warp& w, Cycle now) {
  if (!icache_) return count_l1i(w, true), 1;  // perfect: every fetch hits
  // Kernel code is modelled at its trace PC; one access per fetch.
  uint64_t line_addr = icache_->line_of(w.head().pc);
  if (cache::LineMeta* hit = icache_->find(line_addr)) {
    icache_->touch(*hit, now);
    count_l1i(w, true);
    return 1;
  }
  count_l1i(w, false);
  ++events_[w.stream].icache_misses;
  if (cache::LineMeta* victim = icache_->victim(line_addr)) {
    icache_->install(*victim, line_addr, now);
    victim->readable = 0xff;
  }
  return 1 + miss_latency_;
}

bool FetchUnit::cycle(std::vector<Warp>& warps, Cycle now) {
  uint32_t fetched = 0;
  while (size_ > 0 && fetched < width_) {
    Warp& w = warps[ring_[head_]];
    head_ = (head_ + 1) % ring_.size();
    --size_;
    if (!w.active || w.finished || !w.ibuffer_empty() || w.next_issue == w.count) continue;
    w.decode_ready = latest(w.decode_ready, now + fetch_latency(w, now));
    w.decoded_end = std::min(w.count, w.next_issue + ibuffer_entries_);
    fetched_[fetched++] = uint16_t(&w - warps.data());
  }
  fetched_count_ = fetched;
  return fetched > 0;
}

}  // namespace accelsim::sm
