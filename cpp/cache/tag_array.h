// Sets x ways of LineMeta in one contiguous array, with the set index function
// and replacement policy resolved by name at construction. Lookups go through
// a line-address index, so a 256-way L1 costs O(1) per probe; every change of
// a line's tag goes through install()/invalidate() to keep it in step.
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
  void touch(LineMeta& line, Cycle now) { line.last_use = now.count(); }

  // Bytes written into the line since allocation (write-validate).
  ByteMask& written(const LineMeta& line) { return written_[index_of(line)]; }

  std::span<LineMeta> lines() { return lines_; }
  std::span<const LineMeta> lines() const { return lines_; }

 private:
  size_t index_of(const LineMeta& line) const { return static_cast<size_t>(&line - lines_.data()); }

  uint32_t sets_, ways_, line_bytes_, sector_bytes_;
  uint32_t line_shift_;
  SetIndexParams index_params_;
  const SetIndexFunction* index_fn_;
  const ReplacementPolicy* policy_;
  std::vector<LineMeta> lines_;     // set-major: lines_[set * ways + way]
  std::vector<ByteMask> written_;   // per line
  std::vector<uint32_t> valid_;     // per set: allocated ways
  FlatIndex where_;                 // line_addr -> index into lines_
};

}  // namespace accelsim::cache
