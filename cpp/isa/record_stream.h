// A thread block whose instruction records are produced while it runs, in
// bounded chunks per warp, instead of all up front (PTX mode). Whoever
// consumes the records (the SM) says how far each warp has issued and which
// records it still references; the stream drops the rest and tops up the
// warps that run low. Only ever called at a serial point of the run (never
// from parallel SM ticks): producing records may write shared device memory.
#pragma once
#include <cstdint>

#include "isa/inst_record.h"

namespace accelsim::isa {

// What one warp has buffered now; valid until the next refill.
struct WarpWindow {
  const InstRecord* insts = nullptr;  // insts[0] is the warp's record number `first`
  const uint64_t* addrs = nullptr;    // lane addresses, indexed by InstRecord::addr_offset
  uint64_t first = 0;                 // records dropped before insts[0]
  uint64_t first_addr = 0;            // addresses dropped before addrs[0]
  uint32_t count = 0;                 // records in the window
  bool more = false;                  // records still to come after the window
};

class RecordStream {
 public:
  virtual ~RecordStream() = default;
  virtual uint32_t num_warps() const = 0;
  virtual WarpWindow window(uint32_t warp) const = 0;
  // Ask for a refill when fewer than this many records are left to issue.
  virtual uint32_t low_water() const = 0;
  // issued[w] / keep[w]: warp w's next record to issue and its oldest record
  // still referenced (keep <= issued), both counted from the block's start.
  // Drops records before keep and tops every warp up to a chunk of records
  // ahead of issued (fewer only when its thread block's end comes first);
  // a refill never leaves a warp with more to come empty.
  virtual void refill(const uint64_t* issued, const uint64_t* keep) = 0;
};

}  // namespace accelsim::isa
