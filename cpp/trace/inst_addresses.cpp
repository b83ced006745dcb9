// The three address encodings of a memory instruction (TRACE_FORMAT §4):
// 0 one hex address per active lane, 1 base + signed stride, 2 base + one
// signed delta per further active lane (the tracer writes popcount-1 deltas;
// the reference reader's extra read is not reproduced, so a v5 immediate that
// follows is read as the immediate).
#include <bit>

#include "base/error.h"
#include "trace/inst_decoder.h"

namespace accelsim::trace {

namespace {

std::string got(std::string_view t) {
  return t.empty() ? "the line ends" : "got '" + printable(t) + "'";
}

}  // namespace

void InstDecoder::decode_addresses(Tokens& tok, int64_t line_no, isa::InstRecord& out,
                                   std::vector<uint64_t>& addrs) {
  std::string_view t = tok.next();
  uint32_t mode;
  if (!parse_u32(t, mode) || mode > 2)
    fail(line_no, "address mode", "expected 0 (list), 1 (base+stride) or 2 (base+deltas), " + got(t));
  const uint32_t mask = out.active_mask;
  const int active = std::popcount(mask);
  size_t first = addrs.size();
  if (active > 0) addrs.resize(first + 32, 0);
  uint64_t* lane = active > 0 ? addrs.data() + first : nullptr;
  uint64_t addr = 0;
  if (mode == 0) {
    int k = 0;
    for (uint32_t m = mask; m; m &= m - 1, ++k) {
      if (!parse_hex(t = tok.next(), addr))
        fail(line_no, "mem_addresses",
             "expected " + std::to_string(active) + " hex addresses (mode 0), address " +
                 std::to_string(k + 1) + ": " + got(t));
      lane[std::countr_zero(m)] = addr;
    }
  } else {
    if (!parse_hex(t = tok.next(), addr))
      fail(line_no, "mem_addresses", "expected a hex base address, " + got(t));
    if (mode == 1) {
      int64_t stride;
      if (!parse_i64(t = tok.next(), stride)) fail(line_no, "mem_addresses", "expected a decimal stride, " + got(t));
      int64_t k = 0;
      for (uint32_t m = mask; m; m &= m - 1, ++k) lane[std::countr_zero(m)] = addr + uint64_t(stride * k);
    } else {
      int k = 0;
      for (uint32_t m = mask; m; m &= m - 1, ++k) {
        if (k > 0) {
          int64_t delta;
          if (!parse_i64(t = tok.next(), delta))
            fail(line_no, "mem_addresses",
                 "expected " + std::to_string(active - 1) + " decimal deltas (mode 2), delta " +
                     std::to_string(k) + ": " + got(t));
          addr += uint64_t(delta);
        }
        lane[std::countr_zero(m)] = addr;
      }
    }
  }
  if (active > 0) {
    out.flags |= isa::kFlagHasAddrs;
    out.addr_offset = uint32_t(first);
  }
  if (out.access_bytes == 0) out.access_bytes = 4;  // memory per the tracer, not per the table
  if (first > UINT32_MAX - 32) fail(line_no, "mem_addresses", "thread block has too many addresses");
}

}  // namespace accelsim::trace
