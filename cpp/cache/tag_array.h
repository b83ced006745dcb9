// Sets x ways of LineMeta in one contiguous array, with the set index function
// and replacement policy resolved by name at construction. Lookups go through
// a line-address index, so a 256-way L1 costs O(1) per probe; every change of
// a line's tag goes through install()/invalidate() to keep it in step, and
// every change of its stamps through install()/touch(), which keep each set's
// allocated lines linked in the policy's victim order: a victim is the first
// evictable line of that list, not the result of a scan of all the ways.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/byte_mask.h"
#include "base/flat_index.h"
#include "base/time.h"
#include "cache/line.h"
#include "cache/replacement.h"
#include "cache/set_index.h"

namespace accelsim::cache {

class TagArray {
 public:
  // Throws ConfigError on a geometry the model cannot hold.
  TagArray(uint32_t sets, uint32_t ways, uint32_t line_bytes, uint32_t sector_bytes,
           const std::string& replacement, const std::string& set_index);

  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }
  uint32_t line_bytes() const { return line_bytes_; }
  uint32_t sector_bytes() const { return sector_bytes_; }
  uint32_t sectors_per_line() const { return line_bytes_ / sector_bytes_; }
  uint64_t line_of(uint64_t addr) const { return addr & ~uint64_t(line_bytes_ - 1); }

  uint32_t set_of(uint64_t line_addr) const;
  // The line holding line_addr, or nullptr.
  LineMeta* find(uint64_t line_addr);
  const LineMeta* find(uint64_t line_addr) const;
  // A way to (re)use for line_addr in its set (invalid first, then the
  // policy's victim), or nullptr when every way is reserved. Does not modify it.
  LineMeta* victim(uint64_t line_addr);
  // Resets `line` to hold line_addr with no sectors present.
  void install(LineMeta& line, uint64_t line_addr, Cycle now);
  // Frees `line` (its tag, sectors and written bytes).
  void invalidate(LineMeta& line);
  void touch(LineMeta& line, Cycle now) {
    if (line.last_use == now.count()) return;  // e.g. just installed: in place already
    line.last_use = now.count();
    if (touch_renews_) reorder(index_of(line));
  }

  // Bytes written into the line since allocation (write-validate).
  ByteMask& written(const LineMeta& line) { return written_[index_of(line)]; }

  std::span<LineMeta> lines() { return lines_; }
  std::span<const LineMeta> lines() const { return lines_; }

 private:
  static constexpr uint32_t kNone = ~uint32_t{0};
  // Links of one line in its set's victim order (indices into lines_).
  struct Link {
    uint32_t prev = kNone;
    uint32_t next = kNone;
  };
  struct Order {
    uint32_t head = kNone;  // the oldest line
    uint32_t tail = kNone;  // the newest line
  };

  size_t index_of(const LineMeta& line) const { return static_cast<size_t>(&line - lines_.data()); }
  uint64_t stamp(size_t i) const { return lines_[i].*stamp_; }
  LineMeta* first_free(uint32_t set);
  LineMeta* oldest_evictable(uint32_t set);
  void link(size_t i);    // inserts an allocated line after every older one
  void unlink(size_t i);  // takes it out of its set's order
  // The line's stamp changed: moves it to its place. A hit's line is usually
  // the newest already (an unallocated line is in no list, so stays out).
  void reorder(size_t i) {
    const Link& l = links_[i];
    if (l.next == kNone && (l.prev == kNone || stamp(l.prev) <= stamp(i))) return;
    if (!lines_[i].allocated) return;
    unlink(i);
    link(i);
  }
  void set_free(size_t i, bool free);

  uint32_t sets_, ways_, line_bytes_, sector_bytes_;
  uint32_t line_shift_;
  SetIndexParams index_params_;
  const SetIndexFunction* index_fn_;
  uint64_t LineMeta::*stamp_;       // the policy's
  bool touch_renews_;
  std::vector<LineMeta> lines_;     // set-major: lines_[set * ways + way]
  std::vector<ByteMask> written_;   // per line
  uint32_t free_words_;             // 64-way words per set in free_
  std::vector<uint64_t> free_;      // per set: bit w set when way w is unallocated
  // Per set, the allocated lines by stamp, oldest first (equal stamps in any
  // order: the victim walk resolves ties to the lowest way).
  std::vector<Link> links_;         // per line
  std::vector<Order> order_;        // per set
  FlatIndex where_;                 // line_addr -> index into lines_
};

}  // namespace accelsim::cache
