// A kernel's cheap profile for kernel sampling (grouping similar launches):
// its first thread blocks read from the trace, or all of them. Counts the
// instruction mix by unit class and memory space, global bytes and the
// distinct 128-byte lines they touch (the scanned blocks' footprint), and how
// many bytes of text those blocks took, so that the size of the whole
// (decompressed) trace estimates the instructions of the blocks not read.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "trace/kernel_counts.h"
#include "trace/trace_reader.h"

namespace accelsim::trace {

constexpr int kProfileUnits = 16;  // unit class ids above this are counted in the last slot

struct KernelProfile {
  uint64_t blocks = 0;            // thread blocks read
  bool complete = false;          // every block was read
  uint64_t warp_insts = 0, thread_insts = 0;
  std::array<uint64_t, kProfileUnits> by_unit{};  // warp instructions per unit class
  std::array<uint64_t, kNumMemSpaces> by_space{}; // memory warp instructions per space
  uint64_t global_bytes = 0;      // bytes the active lanes of global loads/stores move
  uint64_t global_lines = 0;      // distinct 128-byte lines they touch (estimated, see below)
  // A sample of the lines touched, the same lines in every kernel (those
  // whose hash is a multiple of kLineSampleEvery), at most kLineSampleMax:
  // whether a kernel re-uses an earlier kernel's data can be told from them.
  std::vector<uint64_t> line_sample;
  uint64_t header_bytes = 0;      // text before the first block
  uint64_t block_bytes = 0;       // text of the blocks read
};

// Reads up to `max_blocks` blocks (0: all) from the start, in fixed memory:
// distinct lines are counted by a HyperLogLog sketch of 4,096 registers
// (exact to rounding for a few thousand lines, about 1.6% off beyond), so a
// whole 10^9-instruction trace can be profiled as it streams by.
KernelProfile profile_kernel(KernelTraceReader& reader, uint64_t max_blocks);
constexpr uint64_t kLineSampleEvery = 32;
constexpr size_t kLineSampleMax = 512;

}  // namespace accelsim::trace
