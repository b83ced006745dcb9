// Where a block run for its effects alone (PTX emulation without timing:
// the CTAs intra-kernel sampling never dispatches) sends its memory
// accesses, instead of keeping instruction records for the timing model.
#pragma once
#include <cstdint>

#include "isa/inst_record.h"

namespace accelsim::isa {

class AccessSink {
 public:
  // One warp instruction's memory record (its space, access size, flags and
  // active mask) and its 32 lane addresses (inactive lanes 0).
  virtual void access(const InstRecord& r, const uint64_t* lanes) = 0;

 protected:
  ~AccessSink() = default;
};

}  // namespace accelsim::isa
