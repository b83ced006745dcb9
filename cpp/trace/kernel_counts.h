// Whole-kernel instruction counts, gathered by streaming every thread block
// (for summaries and instruction mixes; the simulator does not need them).
#pragma once
#include <cstdint>
#include <vector>

#include "trace/trace_reader.h"

namespace accelsim::trace {

constexpr int kNumMemSpaces = 7;  // isa::MemSpace values

struct KernelCounts {
  uint64_t thread_blocks = 0;
  uint64_t warp_insts = 0;
  uint64_t thread_insts = 0;  // sum of active-mask popcounts
  // Indexed [opcode * kNumMemSpaces + mem_space] (generic LD/ST are split by
  // the space they resolved to).
  std::vector<uint64_t> warp_by_opcode_space, thread_by_opcode_space;
};

// Reads `reader` from its first block to the end (rewinding first).
KernelCounts count_kernel(KernelTraceReader& reader);

}  // namespace accelsim::trace
