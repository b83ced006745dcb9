#include "trace/kernel_profile.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

#include "base/bit_count.h"

namespace accelsim::trace {

namespace {

// splitmix64's finaliser: a well-mixed 64-bit hash.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// HyperLogLog (Flajolet et al. 2007) with linear counting for small sets.
class DistinctCounter {
 public:
  void add(uint64_t line) {
    const uint64_t x = mix(line);
    const size_t reg = size_t(x >> (64 - kBits));
    const uint8_t rank = uint8_t(std::countl_zero((x << kBits) | (uint64_t(1) << (kBits - 1))) + 1);
    regs_[reg] = std::max(regs_[reg], rank);
  }
  uint64_t estimate() const {
    constexpr double m = double(kRegs);
    double sum = 0;
    size_t zeros = 0;
    for (uint8_t r : regs_) {
      sum += std::ldexp(1.0, -int(r));
      zeros += r == 0;
    }
    const double raw = 0.7213 / (1 + 1.079 / m) * m * m / sum;
    if (raw <= 2.5 * m && zeros) return uint64_t(std::llround(m * std::log(m / double(zeros))));
    return uint64_t(std::llround(raw));
  }

 private:
  static constexpr int kBits = 12;
  static constexpr size_t kRegs = size_t(1) << kBits;
  std::array<uint8_t, kRegs> regs_{};
};

void count_block(const ThreadBlockTrace& tb, KernelProfile& p, DistinctCounter& lines) {
  for (const isa::InstRecord& r : tb.insts) {
    const unsigned lanes = unsigned(bit_count(r.active_mask));
    p.thread_insts += lanes;
    ++p.by_unit[std::min<size_t>(r.unit, kProfileUnits - 1)];
    if (r.mem_space == isa::kMemNone) continue;
    ++p.by_space[std::min<size_t>(r.mem_space, kNumMemSpaces - 1)];
    if (r.mem_space != isa::kMemGlobal || !(r.flags & isa::kFlagHasAddrs)) continue;
    p.global_bytes += uint64_t(lanes) * r.access_bytes;
    uint64_t last = UINT64_MAX;  // lanes of one access mostly share lines: hash each line once
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!(r.active_mask >> lane & 1u)) continue;
      const uint64_t line = tb.addrs[r.addr_offset + lane] >> 7;
      if (line != last) {
        lines.add(line);
        if (mix(line ^ 0x5bd1e995u) % kLineSampleEvery == 0 && p.line_sample.size() < kLineSampleMax)
          p.line_sample.push_back(line);
      }
      last = line;
    }
  }
  p.warp_insts += tb.insts.size();
}

}  // namespace

KernelProfile profile_kernel(KernelTraceReader& reader, uint64_t max_blocks) {
  reader.rewind();
  KernelProfile p;
  p.header_bytes = reader.bytes_read();
  DistinctCounter lines;
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
  p.global_lines = lines.estimate();
  std::sort(p.line_sample.begin(), p.line_sample.end());
  p.line_sample.erase(std::unique(p.line_sample.begin(), p.line_sample.end()), p.line_sample.end());
  return p;
}

}  // namespace accelsim::trace
