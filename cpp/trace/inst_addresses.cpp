// The three address encodings of a memory instruction (TRACE_FORMAT §4):
// 0 one hex address per active lane, 1 base + signed stride, 2 base + one
// signed delta per further active lane (the tracer writes popcount-1 deltas;
// the reference reader's extra read is not reproduced, so a v5 immediate that
// follows is read as the immediate).
#include <bit>
#include <cstdio>

#include "base/error.h"
#include "base/bit_count.h"
#include "base/hex.h"
#include "trace/address_space.h"
#include "trace/inst_decoder.h"

namespace accelsim::trace {

namespace {

std::string got(std::string_view t) {
  return t.empty() ? "the line ends" : "got '" + printable(t) + "'";
}

}  // namespace

// Lane `lane`'s address leaves no room for its access below the limit (the
// callers check inline, so only a bad trace pays for the message). The
// address comes computed exactly (base + up to 31 signed 64-bit steps fits in
// 128 bits), so a stride or delta that leaves the address space is caught
// instead of wrapping modulo 2^64.
void InstDecoder::bad_address(int64_t line_no, Wide addr, int lane, uint32_t bytes) const {
  std::string where = "lane " + std::to_string(lane) + " address ";
  if (addr < 0) fail(line_no, "mem_addresses", where + "falls below 0 (base and stride/deltas wrap)");
  where += addr >= Wide(UINT64_MAX) + 1 ? std::string("exceeds 2^64") : hex(uint64_t(addr));
  fail(line_no, "mem_addresses",
       where + " lies at or beyond 2^57 (the widest GPU virtual address space) with its " +
           std::to_string(bytes) + "-byte access");
}

void InstDecoder::addresses_listed(Tokens& tok, int64_t line_no, const LaneAddresses& to) {
  const int active = bit_count(to.mask);
  std::string_view t;
  uint64_t addr = 0;
  int k = 0;
  for (uint32_t m = to.mask; m; m &= m - 1, ++k) {
    if (!parse_hex(t = tok.next(), addr))
      fail(line_no, "mem_addresses",
           "expected " + std::to_string(active) + " hex addresses (mode 0), address " + std::to_string(k + 1) +
               ": " + got(t));
    if (addr > to.last_start) [[unlikely]]
      bad_address(line_no, Wide(addr), std::countr_zero(m), to.bytes);
    to.lane[std::countr_zero(m)] = addr;
  }
}

void InstDecoder::addresses_strided(Tokens& tok, int64_t line_no, const LaneAddresses& to) {
  std::string_view t;
  uint64_t addr = 0;
  if (!parse_hex(t = tok.next(), addr)) fail(line_no, "mem_addresses", "expected a hex base address, " + got(t));
  int64_t stride;
  if (!parse_i64(t = tok.next(), stride)) fail(line_no, "mem_addresses", "expected a decimal stride, " + got(t));
  Wide a = Wide(addr);
  for (uint32_t m = to.mask; m; m &= m - 1, a += stride) {
    if (a < 0 || a > Wide(to.last_start)) [[unlikely]]
      bad_address(line_no, a, std::countr_zero(m), to.bytes);
    to.lane[std::countr_zero(m)] = uint64_t(a);
  }
}

void InstDecoder::addresses_deltas(Tokens& tok, int64_t line_no, const LaneAddresses& to) {
  const int active = bit_count(to.mask);
  std::string_view t;
  uint64_t addr = 0;
  if (!parse_hex(t = tok.next(), addr)) fail(line_no, "mem_addresses", "expected a hex base address, " + got(t));
  int k = 0;
  Wide a = Wide(addr);
  for (uint32_t m = to.mask; m; m &= m - 1, ++k) {
    if (k > 0) {
      int64_t delta;
      if (!parse_i64(t = tok.next(), delta))
        fail(line_no, "mem_addresses",
             "expected " + std::to_string(active - 1) + " decimal deltas (mode 2), delta " + std::to_string(k) +
                 ": " + got(t));
      a += delta;
    }
    if (a < 0 || a > Wide(to.last_start)) [[unlikely]]
      bad_address(line_no, a, std::countr_zero(m), to.bytes);
    to.lane[std::countr_zero(m)] = uint64_t(a);
  }
}

void InstDecoder::decode_addresses(Tokens& tok, int64_t line_no, isa::InstRecord& out,
                                   std::vector<uint64_t>& addrs) {
  std::string_view t = tok.next();
  uint32_t mode;
  if (!parse_u32(t, mode) || mode > 2)
    fail(line_no, "address mode", "expected 0 (list), 1 (base+stride) or 2 (base+deltas), " + got(t));
  const uint32_t mask = out.active_mask;
  const int active = bit_count(mask);
  size_t first = addrs.size();
  if (active > 0) addrs.resize(first + 32, 0);
  // The access size the coalescer will use (set below when the table gave
  // none), and the last start address that leaves room for it.
  const uint32_t bytes = out.access_bytes ? out.access_bytes : 4;
  const LaneAddresses to{mask, active > 0 ? addrs.data() + first : nullptr, kAddressLimit - bytes, bytes};
  if (mode == 0)
    addresses_listed(tok, line_no, to);
  else if (mode == 1)
    addresses_strided(tok, line_no, to);
  else
    addresses_deltas(tok, line_no, to);
  if (active > 0) {
    out.flags |= isa::kFlagHasAddrs;
    out.addr_offset = uint32_t(first);
  }
  if (out.access_bytes == 0) out.access_bytes = 4;  // memory per the tracer, not per the table
  if (first > UINT32_MAX - 32) fail(line_no, "mem_addresses", "thread block has too many addresses");
}

}  // namespace accelsim::trace
