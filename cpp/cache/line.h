// Per-line metadata of the tag array: 32 bytes, so a victim scan over a
// 256-way set stays in a few KiB. Sectors are bits of small masks (<= 8
// sectors per line); bytes written without a fetch live beside it in the
// tag array (TagArray::written), touched only by writes.
#pragma once
#include <cstdint>

namespace accelsim::cache {

struct LineMeta {
  uint64_t line_addr = 0;    // tag (full line address)
  uint64_t alloc_cycle = 0;  // when the line was allocated (FIFO)
  uint64_t last_use = 0;     // last hit or allocation (LRU)
  uint8_t readable = 0;      // sectors whose whole data is present
  uint8_t modified = 0;      // sectors holding data newer than the level below
  uint8_t reserved = 0;      // sectors with a fill pending into this line
  bool allocated = false;

  bool evictable() const { return !allocated || reserved == 0; }
  // Partially written sectors are present but not readable.
  uint8_t present() const { return readable | modified | reserved; }
};

}  // namespace accelsim::cache
