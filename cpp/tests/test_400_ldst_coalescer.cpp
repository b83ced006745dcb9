// 43x: the coalescer (sub-warp sectors, Kepler lines, sizes, misalignment).
#include "base/error.h"
#include "cache/cache_types.h"
#include "ldst/coalescer.h"
#include "tests/harness.h"
#include "tests/ldst_test_util.h"

#include <bit>
#include <vector>

using namespace accelsim::ldst;
using accelsim::testing::Lanes;
using accelsim::testing::strided;

namespace {

uint32_t total_sectors(const CoalescedBuffer& out, uint32_t n) {
  uint32_t s = 0;
  for (uint32_t i = 0; i < n; ++i) s += std::popcount(out[i].sector_mask);
  return s;
}

uint32_t distinct_lines(const CoalescedBuffer& out, uint32_t n) {
  uint32_t d = 0;
  for (uint32_t i = 0; i < n; ++i) {
    bool seen = false;
    for (uint32_t j = 0; j < i; ++j) seen |= out[j].line_addr == out[i].line_addr;
    d += !seen;
  }
  return d;
}

const CoalescerParams kPascal{8, 128, 32, 32, false};
const CoalescerParams kKepler{32, 128, 32, 128, false};

}  // namespace

TEST_CASE("431-coalesce-4B-contiguous-four-sectors-one-line") {
  Lanes l = strided(0x1000, 4);
  CoalescedBuffer out;
  uint32_t n = coalesce(0xFFFFFFFFu, 4, l.a, kPascal, out);
  CHECK_EQ(n, uint32_t{4});  // one per sub-warp of 8 lanes
  CHECK_EQ(total_sectors(out, n), uint32_t{4});
  CHECK_EQ(distinct_lines(out, n), uint32_t{1});
  for (uint32_t i = 0; i < n; ++i) {
    CHECK_EQ(int(out[i].sector_mask), 1 << i);
    CHECK_EQ(out[i].lane_mask, 0xFFu << (8 * i));
    CHECK_EQ(out[i].size_bytes, uint16_t{32});
    CHECK_EQ(out[i].bytes.count(), 32u);
  }
  CoalescerParams merged = kPascal;
  merged.merge_groups = true;
  n = coalesce(0xFFFFFFFFu, 4, l.a, merged, out);
  CHECK_EQ(n, uint32_t{1});
  CHECK_EQ(int(out[0].sector_mask), 0xF);
  CHECK_EQ(out[0].lane_mask, 0xFFFFFFFFu);
}

TEST_CASE("432-coalesce-8B-eight-sectors-two-lines") {
  Lanes l = strided(0x1000, 8);
  CoalescedBuffer out;
  uint32_t n = coalesce(0xFFFFFFFFu, 8, l.a, kPascal, out);
  CHECK_EQ(total_sectors(out, n), uint32_t{8});
  CHECK_EQ(distinct_lines(out, n), uint32_t{2});
  CHECK_EQ(out[0].size_bytes, uint16_t{64});
}

TEST_CASE("433-coalesce-stride-128B-thirty-two-requests") {
  Lanes l = strided(0x1000, 128);
  CoalescedBuffer out;
  uint32_t n = coalesce(0xFFFFFFFFu, 4, l.a, kPascal, out);
  CHECK_EQ(n, uint32_t{32});
  CHECK_EQ(total_sectors(out, n), uint32_t{32});
  for (uint32_t i = 0; i < n; ++i) CHECK_EQ(out[i].lane_mask, 1u << i);
}

TEST_CASE("434-coalesce-kepler-whole-warp-128B-lines") {
  Lanes l = strided(0x1000, 4);
  CoalescedBuffer out;
  uint32_t n = coalesce(0xFFFFFFFFu, 4, l.a, kKepler, out);
  CHECK_EQ(n, uint32_t{1});
  CHECK_EQ(out[0].size_bytes, uint16_t{128});
  CHECK_EQ(out[0].lane_mask, 0xFFFFFFFFu);
  // One lane touching one byte still moves the whole 128 B line.
  n = coalesce(0x1u, 1, l.a, kKepler, out);
  CHECK_EQ(n, uint32_t{1});
  CHECK_EQ(int(out[0].sector_mask), 0xF);
  CHECK_EQ(out[0].bytes.count(), 1u);
  // 8 B stride-8: 256 B = two lines, one request each.
  l = strided(0x1000, 8);
  n = coalesce(0xFFFFFFFFu, 8, l.a, kKepler, out);
  CHECK_EQ(n, uint32_t{2});
  CHECK_EQ(out[1].line_addr, uint64_t{0x1080});
}

TEST_CASE("435-coalesce-misaligned-spans-sectors-and-lines") {
  Lanes l;
  l.a[0] = 0x101C;  // 8 B across the sector 0 / sector 1 boundary
  CoalescedBuffer out;
  uint32_t n = coalesce(0x1u, 8, l.a, kPascal, out);
  CHECK_EQ(n, uint32_t{1});
  CHECK_EQ(int(out[0].sector_mask), 0x3);
  l.a[0] = 0x107C;  // 8 B across a line boundary: two requests for one lane
  n = coalesce(0x1u, 8, l.a, kPascal, out);
  CHECK_EQ(n, uint32_t{2});
  CHECK_EQ(out[0].line_addr, uint64_t{0x1000});
  CHECK_EQ(int(out[0].sector_mask), 0x8);
  CHECK_EQ(out[1].line_addr, uint64_t{0x1080});
  CHECK_EQ(int(out[1].sector_mask), 0x1);
  CHECK_EQ(out[0].lane_mask, 1u);
  CHECK_EQ(out[1].lane_mask, 1u);
  CHECK(out[0].bytes == accelsim::ByteMask::range(124, 4));
}

TEST_CASE("436-coalesce-inactive-lanes-and-empty-mask") {
  Lanes l = strided(0x1000, 128);
  CoalescedBuffer out;
  CHECK_EQ(coalesce(0u, 4, l.a, kPascal, out), uint32_t{0});
  CHECK_EQ(coalesce(0xFFFFFFFFu, 0, l.a, kPascal, out), uint32_t{0});
  uint32_t n = coalesce(0x80000001u, 4, l.a, kPascal, out);  // lanes 0 and 31 only
  CHECK_EQ(n, uint32_t{2});
  CHECK_EQ(out[0].group, uint8_t{0});
  CHECK_EQ(out[1].group, uint8_t{3});
  CHECK_EQ(out[1].line_addr, uint64_t{0x1000 + 31 * 128});
}

TEST_CASE("437-coalesce-access-sizes") {
  CoalescedBuffer out;
  // 1 B and 2 B contiguous: the whole warp fits in one or two sectors.
  Lanes l = strided(0x2000, 1);
  uint32_t n = coalesce(0xFFFFFFFFu, 1, l.a, kPascal, out);
  CHECK_EQ(total_sectors(out, n), uint32_t{4});  // 4 sub-warps each fetch sector 0
  CHECK_EQ(distinct_lines(out, n), uint32_t{1});
  l = strided(0x2000, 2);
  n = coalesce(0xFFFFFFFFu, 2, l.a, kPascal, out);
  CHECK_EQ(n, uint32_t{4});
  CHECK_EQ(int(out[3].sector_mask), 0x2);
  // 16 B contiguous: each sub-warp covers one whole line.
  l = strided(0x2000, 16);
  n = coalesce(0xFFFFFFFFu, 16, l.a, kPascal, out);
  CHECK_EQ(n, uint32_t{4});
  CHECK_EQ(total_sectors(out, n), uint32_t{16});
  CHECK_EQ(distinct_lines(out, n), uint32_t{4});
  // Same address in every lane: one sector.
  l = strided(0x2000, 0);
  n = coalesce(0xFFFFFFFFu, 4, l.a, kPascal, out);
  CHECK_EQ(n, uint32_t{4});
  CHECK_EQ(total_sectors(out, n), uint32_t{4});
}

TEST_CASE("438-coalesce-params-checked") {
  CoalescerParams p = kPascal;
  CHECK_THROWS(check_coalescer_params(CoalescerParams{7, 128, 32, 32, false}), accelsim::ConfigError);
  CHECK_THROWS(check_coalescer_params(CoalescerParams{8, 256, 32, 32, false}), accelsim::ConfigError);
  CHECK_THROWS(check_coalescer_params(CoalescerParams{8, 128, 32, 16, false}), accelsim::ConfigError);
  check_coalescer_params(p);
  check_coalescer_params(kKepler);
}

TEST_CASE("439-coalesce-from-inst-record") {
  accelsim::isa::InstRecord inst{};
  inst.active_mask = 0xFFFFFFFFu;
  inst.access_bytes = 4;
  std::vector<uint64_t> pool(64, 0);
  for (int i = 0; i < 32; ++i) pool[32 + i] = 0x4000 + 4 * i;
  inst.addr_offset = 32;
  CoalescedBuffer out;
  uint32_t n = coalesce(inst, std::span<const uint64_t, 32>(pool.data() + inst.addr_offset, 32), kPascal, out);
  CHECK_EQ(n, uint32_t{4});
  CHECK_EQ(out[0].line_addr, uint64_t{0x4000});
}

TEST_CASE("440-coalesced-request-feeds-sector-accesses") {
  Lanes l = strided(0x1000, 8);
  CoalescedBuffer out;
  CoalescerParams merged = kPascal;
  merged.merge_groups = true;
  uint32_t n = coalesce(0xFFFFFFFFu, 8, l.a, merged, out);
  CHECK_EQ(n, uint32_t{2});
  accelsim::cache::CacheRequest reqs[8];
  uint32_t k = accelsim::cache::split_sectors(out[1].line_addr, out[1].sector_mask, out[1].bytes,
                                              accelsim::cache::AccessType::GLOBAL_R, 5, 0, reqs);
  CHECK_EQ(k, uint32_t{4});
  CHECK_EQ(int(reqs[3].sector), 3);
  CHECK_EQ(reqs[3].line_addr, uint64_t{0x1080});
  CHECK_EQ(reqs[3].tag, uint32_t{5});
}

TEST_CASE("441-coalesce-top-of-address-space-is-bounded") {
  CoalescedBuffer out;
  // One lane at the very top: one request, no wrap, no runaway loop.
  Lanes top{};
  top.a[0] = 0xfffffffffffffff0ull;
  CHECK_EQ(coalesce(0x1u, 4, top.a, kPascal, out), uint32_t{1});
  CHECK_EQ(out[0].line_addr, 0xffffffffffffff80ull);
  // An access crossing 2^64 lands in the top line and line 0 (modulo 2^64).
  top.a[0] = 0xfffffffffffffffeull;
  CHECK_EQ(coalesce(0x1u, 4, top.a, kPascal, out), uint32_t{2});
  CHECK_EQ(out[1].line_addr, uint64_t{0});
  CHECK_EQ(out[0].bytes.count() + out[1].bytes.count(), 4u);
  // Base 0x10, stride -1: lanes 17+ wrap to the top of the range.
  Lanes down = strided(0x10, uint64_t(-1));
  uint32_t n = coalesce(0xFFFFFFFFu, 4, down.a, kPascal, out);
  CHECK(n >= 2 && n <= kMaxCoalescedRequests);
  // The worst case, every lane straddling its own pair of lines at the top,
  // fills the buffer exactly: 64 requests, never more.
  Lanes worst = strided(0xffffffffffff0000ull - 2, 256);
  CHECK_EQ(coalesce(0xFFFFFFFFu, 16, worst.a, kPascal, out), kMaxCoalescedRequests);
  // Arbitrary 64-bit addresses and sizes: always within the buffer.
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int trial = 0; trial < 2000; ++trial) {
    Lanes r{};
    for (auto& a : r.a) a = (x = x * 6364136223846793005ull + 1442695040888963407ull);
    uint32_t size = 1u << (trial % 8);  // 1..128 bytes
    for (const CoalescerParams& p : {kPascal, kKepler})
      CHECK(coalesce(uint32_t(x >> 32) | 1u, size, r.a, p, out) <= kMaxCoalescedRequests);
  }
}

TEST_CASE("442-coalesce-any-params-terminates") {
  // A non-sectored L1D (one 128 B sector) with the default 32 B segment used
  // to spin forever widening sectors to segments: now whole sectors.
  Lanes l = strided(0x1000, 4);
  CoalescedBuffer out;
  const CoalescerParams non_sectored{8, 128, 128, 32, true};
  CHECK_EQ(coalesce(0xFFFFFFFFu, 4, l.a, non_sectored, out), uint32_t{1});
  CHECK_EQ(int(out[0].sector_mask), 1);
  CHECK_EQ(int(out[0].size_bytes), 128);
  // A group size that does not divide 32 still serves every lane.
  const CoalescerParams sevens{7, 128, 32, 32, false};
  uint32_t n = coalesce(0xFFFFFFFFu, 4, l.a, sevens, out);
  uint32_t lanes = 0;
  for (uint32_t i = 0; i < n; ++i) lanes |= out[i].lane_mask;
  CHECK_EQ(lanes, 0xFFFFFFFFu);
  CHECK_THROWS(coalesce(0x1u, 4, l.a, CoalescerParams{8, 0, 32, 32, false}, out), accelsim::ConfigError);
}

namespace {

// The requests of a warp worked out byte by byte: each group's lanes in
// order, each byte to the request of its line (the group's own, or the
// whole warp's when groups merge), a new request where none has that line.
std::vector<CoalescedRequest> bytewise(const Lanes& l, uint32_t size, const CoalescerParams& p) {
  std::vector<CoalescedRequest> out;
  size_t first = 0;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t group = lane / p.group_threads;
    if (lane % p.group_threads == 0 && !p.merge_groups) first = out.size();
    for (uint32_t b = 0; b < size; ++b) {
      const uint64_t a = l.a[lane] + b, line = a & ~uint64_t(p.line_bytes - 1);
      size_t i = first;
      while (i < out.size() && out[i].line_addr != line) ++i;
      if (i == out.size()) out.push_back(CoalescedRequest{line, {}, 0, 0, 0, uint8_t(group)});
      out[i].bytes.set_range(uint32_t(a - line), 1);
      out[i].lane_mask |= 1u << lane;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("443-coalesce-unit-stride-and-broadcast-warps-match-byte-by-byte") {
  // A whole warp at consecutive addresses, or all at one, takes a shorter
  // path; its requests must be those of the lane-by-lane rules, aligned or not.
  const CoalescerParams params[] = {kPascal, kKepler, {8, 128, 32, 32, true}, {7, 128, 32, 32, false},
                                    {4, 64, 32, 32, false}, {16, 32, 32, 32, true}};
  CoalescedBuffer out;
  for (const CoalescerParams& p : params)
    for (uint64_t base : {0x1000ull, 0x1004ull, 0x107cull, 0x2ffeull, 0x1031ull})
      for (uint32_t size : {1u, 2u, 4u, 8u, 12u, 16u, 32u, 64u, 128u}) {
        if (size > p.line_bytes) continue;
       for (uint64_t stride : {uint64_t(size), uint64_t(0)}) {
        Lanes l = strided(base, stride);
        const std::vector<CoalescedRequest> want = bytewise(l, size, p);
        const uint32_t n = coalesce(0xFFFFFFFFu, size, l.a, p, out);
        CHECK_EQ(size_t(n), want.size());
        for (uint32_t i = 0; i < n && i < want.size(); ++i) {
          CHECK_EQ(out[i].line_addr, want[i].line_addr);
          CHECK_EQ(out[i].lane_mask, want[i].lane_mask);
          CHECK_EQ(int(out[i].group), int(want[i].group));
          CHECK(out[i].bytes.w[0] == want[i].bytes.w[0] && out[i].bytes.w[1] == want[i].bytes.w[1]);
        }
       }
      }
}
