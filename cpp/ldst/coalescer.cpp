#include "ldst/coalescer.h"

#include <algorithm>
#include <bit>

#include "base/bit_count.h"
#include "base/error.h"

namespace accelsim::ldst {
namespace {

// The request for `line` among out[first, n), appending a fresh one if absent.
// Lines are unique in that range, so `last` (the request the previous lane
// used, when in range) is tried first: neighbouring lanes mostly share a line.
// The caller bounds n (two requests per lane at most, coalesce() below); the
// check makes an overflow impossible whatever that argument's premises.
CoalescedRequest& request_for(uint64_t line, uint32_t group, uint32_t first, uint32_t& n, uint32_t& last,
                              std::span<CoalescedRequest, kMaxCoalescedRequests> out) {
  if (last >= first && last < n && out[last].line_addr == line) return out[last];
  for (uint32_t i = first; i < n; ++i)
    if (out[i].line_addr == line) return out[last = i];
  if (n >= kMaxCoalescedRequests) throw Error("coalescer: more than 64 requests for one instruction");
  last = n;
  CoalescedRequest& r = out[n++];
  r = CoalescedRequest{};
  r.line_addr = line;
  r.group = static_cast<uint8_t>(group);
  return r;
}

// Sectors the bytes touch, widened to whole fetch segments. A segment
// smaller than a sector fetches the sector (a non-sectored L1D has one
// 128 B "sector" while the segment stays 32 B): per_segment is at least 1,
// so the widening loop always advances.
void finish(CoalescedRequest& r, const CoalescerParams& p) {
  const uint32_t sectors = std::min(p.line_bytes / p.sector_bytes, 8u);  // sector_mask bits
  const uint32_t per_segment = std::clamp(p.segment_bytes / p.sector_bytes, 1u, 8u);
  uint8_t mask = r.bytes.chunks_touched(p.sector_bytes, sectors);
  const uint8_t seg_bits = uint8_t((1u << per_segment) - 1);
  for (uint32_t s = 0; s < sectors; s += per_segment)
    if (mask & (seg_bits << s)) mask |= uint8_t(seg_bits << s);
  r.sector_mask = mask;
  r.size_bytes = static_cast<uint16_t>(bit_count(mask) * p.sector_bytes);
}

// Adds one lane's bytes [a, a+bytes) to the group's requests; an access
// crossing a line boundary lands in two requests. Counted in bytes left, not
// by comparing addresses, so the top of the address space cannot wrap the
// loop: with bytes <= line_bytes it runs at most twice (the line after the
// last one is line 0, as the address arithmetic is modulo 2^64).
void add_lane(uint32_t lane, uint64_t a, uint32_t bytes, uint32_t group, uint32_t first, uint32_t& n,
              uint32_t& last, const CoalescerParams& p, std::span<CoalescedRequest, kMaxCoalescedRequests> out) {
  while (bytes > 0) {
    const uint64_t line = a & ~uint64_t(p.line_bytes - 1);
    const uint32_t off = static_cast<uint32_t>(a - line);
    const uint32_t take = std::min(bytes, p.line_bytes - off);
    CoalescedRequest& r = request_for(line, group, first, n, last, out);
    r.bytes.set_range(off, take);
    r.lane_mask |= 1u << lane;
    bytes -= take;
    a = line + p.line_bytes;
  }
}

// The common unit-stride access (every lane active, lane i at a0 + i * bytes)
// walked line by line instead of lane by lane: each group's bytes are one
// run, so its requests are its lines in order, with the lanes that meet each.
// The requests and their order are those add_lane builds. False (nothing
// written) when the access is not of that form.
bool coalesce_contiguous(const uint64_t* addrs, uint32_t bytes, uint32_t gt, const CoalescerParams& p,
                         std::span<CoalescedRequest, kMaxCoalescedRequests> out, uint32_t& n) {
  const uint64_t a0 = addrs[0];
  if (a0 > UINT64_MAX - 32ull * bytes) return false;  // the run would wrap
  for (uint32_t lane = 1; lane < 32; ++lane)
    if (addrs[lane] != a0 + uint64_t(lane) * bytes) return false;
  n = 0;
  const uint64_t L = p.line_bytes;
  for (uint32_t lo = 0; lo < 32; lo += gt) {
    const uint64_t end = a0 + uint64_t(std::min(32u, lo + gt)) * bytes;
    for (uint64_t a = a0 + uint64_t(lo) * bytes; a < end;) {
      const uint64_t line = a & ~(L - 1), stop = std::min(end, line + L);
      // Lines only grow along the run, so merging groups can meet the
      // previous request's line only, at a group's first line.
      const bool reuse = p.merge_groups && n > 0 && out[n - 1].line_addr == line;
      CoalescedRequest& r = reuse ? out[n - 1] : out[n++];
      if (!reuse) r = CoalescedRequest{line, {}, 0, 0, 0, uint8_t(lo / gt)};
      r.bytes.set_range(uint32_t(a - line), uint32_t(stop - a));
      const uint32_t first = uint32_t((a - a0) / bytes), last = uint32_t((stop - 1 - a0) / bytes);
      r.lane_mask |= uint32_t((uint64_t(2) << last) - (uint64_t(1) << first));
      a = stop;
    }
  }
  return true;
}

// Every lane active at one address (a value every thread loads): each group
// has the requests of its first lane, serving all its lanes; merging groups,
// the warp has those of lane 0. The requests are those add_lane builds.
bool coalesce_broadcast(const uint64_t* addrs, uint32_t bytes, uint32_t gt, const CoalescerParams& p,
                        std::span<CoalescedRequest, kMaxCoalescedRequests> out, uint32_t& n) {
  const uint64_t a = addrs[0];
  for (uint32_t lane = 1; lane < 32; ++lane)
    if (addrs[lane] != a) return false;
  n = 0;
  const uint32_t step = p.merge_groups ? 32 : gt;
  for (uint32_t lo = 0; lo < 32; lo += step) {
    const uint32_t lanes = uint32_t((uint64_t(1) << std::min(32u, lo + step)) - (uint64_t(1) << lo));
    // As add_lane: counted in bytes left, so the top of the address space wraps to line 0.
    uint64_t x = a;
    for (uint32_t left = bytes; left > 0;) {
      const uint64_t line = x & ~uint64_t(p.line_bytes - 1);
      const uint32_t off = uint32_t(x - line), take = std::min(left, p.line_bytes - off);
      out[n++] = CoalescedRequest{line, ByteMask::range(off, take), lanes, 0, 0, uint8_t(lo / gt)};
      left -= take;
      x = line + p.line_bytes;
    }
  }
  return true;
}

}  // namespace

void check_coalescer_params(const CoalescerParams& p) {
  if (p.group_threads == 0 || p.group_threads > 32 || 32 % p.group_threads)
    throw ConfigError("coalescer_threads", "must divide 32, got " + std::to_string(p.group_threads));
  if (!std::has_single_bit(p.line_bytes) || p.line_bytes > ByteMask::kBits)
    throw ConfigError("l1d_line", "coalescer line must be a power of two <= 128 B");
  if (!std::has_single_bit(p.sector_bytes) || p.sector_bytes > p.line_bytes || p.line_bytes / p.sector_bytes > 8)
    throw ConfigError("l1d_sector", "sector must be a power of two dividing the line into <= 8");
  if (!std::has_single_bit(p.segment_bytes) || p.segment_bytes < p.sector_bytes || p.segment_bytes > p.line_bytes)
    throw ConfigError("coalescer_segment", "segment must be a power of two between sector and line size");
}

uint32_t coalesce(uint32_t active_mask, uint32_t access_bytes, const uint64_t* lane_addrs,
                  const CoalescerParams& p, std::span<CoalescedRequest, kMaxCoalescedRequests> out) {
  if (active_mask == 0 || access_bytes == 0) return 0;
  // The loops below advance only with a power-of-two line and a sector.
  if (!std::has_single_bit(p.line_bytes) || p.sector_bytes == 0)
    throw ConfigError("l1d_line", "coalescer line must be a power of two and sectors non-empty");
  // Each lane then touches at most two lines, so 64 requests always suffice.
  if (access_bytes > p.line_bytes) access_bytes = p.line_bytes;
  uint32_t n = 0, last = 0;
  // Groups cover all 32 lanes whatever group_threads is (the last one short
  // when it does not divide 32; 0 reads as 1).
  const uint32_t gt = std::clamp(p.group_threads, 1u, 32u);
  if (active_mask == UINT32_MAX && (coalesce_contiguous(lane_addrs, access_bytes, gt, p, out, n) ||
                                    coalesce_broadcast(lane_addrs, access_bytes, gt, p, out, n))) {
    for (uint32_t i = 0; i < n; ++i) finish(out[i], p);
    return n;
  }
  for (uint32_t g = 0; g * gt < 32; ++g) {
    const uint32_t first = p.merge_groups ? 0 : n;
    for (uint32_t lane = g * gt; lane < std::min(32u, (g + 1) * gt); ++lane)
      if (active_mask >> lane & 1) add_lane(lane, lane_addrs[lane], access_bytes, g, first, n, last, p, out);
  }
  for (uint32_t i = 0; i < n; ++i) finish(out[i], p);
  return n;
}

uint32_t coalesce(const isa::InstRecord& inst, std::span<const uint64_t, 32> lane_addrs,
                  const CoalescerParams& p, std::span<CoalescedRequest, kMaxCoalescedRequests> out) {
  return coalesce(inst.active_mask, inst.access_bytes, lane_addrs.data(), p, out);
}

}  // namespace accelsim::ldst
