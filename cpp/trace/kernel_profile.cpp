#include "trace/kernel_profile.h"

#include <algorithm>
#include <bit>
#include <unordered_set>

namespace accelsim::trace {

namespace {

void count_block(const ThreadBlockTrace& tb, KernelProfile& p, std::unordered_set<uint64_t>& lines) {
  for (const isa::InstRecord& r : tb.insts) {
    const unsigned lanes = unsigned(std::popcount(r.active_mask));
    p.thread_insts += lanes;
    ++p.by_unit[std::min<size_t>(r.unit, kProfileUnits - 1)];
    if (r.mem_space == isa::kMemNone) continue;
    ++p.by_space[std::min<size_t>(r.mem_space, kNumMemSpaces - 1)];
    if (r.mem_space != isa::kMemGlobal || !(r.flags & isa::kFlagHasAddrs)) continue;
    p.global_bytes += uint64_t(lanes) * r.access_bytes;
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!(r.active_mask >> lane & 1u) || lines.size() >= kMaxLines) continue;
      lines.insert(tb.addrs[r.addr_offset + lane] >> 7);
    }
  }
  p.warp_insts += tb.insts.size();
}

}  // namespace

KernelProfile profile_kernel(KernelTraceReader& reader, uint64_t max_blocks) {
  reader.rewind();
  KernelProfile p;
  p.header_bytes = reader.bytes_read();
  std::unordered_set<uint64_t> lines;
  ThreadBlockTrace tb;
  while (max_blocks == 0 || p.blocks < max_blocks) {
    if (!reader.next_block(tb)) {
      p.complete = true;
      break;
    }
    ++p.blocks;
    count_block(tb, p, lines);
  }
  if (!p.complete && p.blocks == reader.info().grid.count()) p.complete = true;
  p.block_bytes = reader.bytes_read() - p.header_bytes;
  p.global_lines = lines.size();
  return p;
}

}  // namespace accelsim::trace
