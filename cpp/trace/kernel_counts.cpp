#include "trace/kernel_counts.h"

#include <bit>

#include "base/bit_count.h"

namespace accelsim::trace {

KernelCounts count_kernel(KernelTraceReader& reader) {
  reader.rewind();
  KernelCounts c;
  size_t cells = reader.isa().size() * kNumMemSpaces;
  c.warp_by_opcode_space.assign(cells, 0);
  c.thread_by_opcode_space.assign(cells, 0);
  ThreadBlockTrace tb;
  while (reader.next_block(tb)) {
    ++c.thread_blocks;
    c.warp_insts += tb.insts.size();
    for (const isa::InstRecord& r : tb.insts) {
      unsigned lanes = unsigned(bit_count(r.active_mask));
      size_t cell = size_t(r.opcode) * kNumMemSpaces + r.mem_space;
      c.thread_insts += lanes;
      ++c.warp_by_opcode_space[cell];
      c.thread_by_opcode_space[cell] += lanes;
    }
  }
  return c;
}

}  // namespace accelsim::trace
