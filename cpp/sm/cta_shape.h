// What one CTA of a kernel needs from an SM, and what the SM needs to run it.
#pragma once
#include <cstdint>

#include "sm/exec/unit_set.h"

namespace accelsim::sm {

struct CtaShape {
  uint32_t kernel = 0;        // launch index of the kernel (stats attribution)
  uint32_t threads = 0;
  uint32_t warps = 0;
  uint32_t registers = 0;     // after allocation granularity
  uint32_t shmem_bytes = 0;
  uint32_t max_ctas_per_sm = 1;  // occupancy limit for this kernel
  const UnitMap* units = nullptr;  // ISA class -> unit kind for this kernel
  uint32_t* resident = nullptr;    // the kernel's count of CTAs on SMs (decremented on retire)
  uint8_t stream = 0;              // stream slot: every event of the CTA counts there
};

}  // namespace accelsim::sm
