// 63x: address mapping (partition hashing, L2 slices, DRAM fields).
#include <algorithm>
#include <string>
#include <vector>

#include "base/error.h"
#include "config/gpu_config.h"
#include "mem/address_map.h"
#include "tests/harness.h"

using namespace accelsim;
using namespace accelsim::mem;

namespace {
AddressMapParams params(int64_t partitions, int64_t slices, const char* hashing) {
  AddressMapParams p;
  p.partitions = partitions;
  p.slices_per_partition = slices;
  p.hashing = hashing;
  return p;
}

// Spread of accesses addr = i * stride over partitions: max - min count.
int64_t imbalance(const AddressMap& m, int64_t partitions, uint64_t stride, int64_t n) {
  std::vector<int64_t> count(static_cast<size_t>(partitions), 0);
  for (int64_t i = 0; i < n; ++i) ++count[m.map(static_cast<uint64_t>(i) * stride).partition];
  const auto [mn, mx] = std::minmax_element(count.begin(), count.end());
  return *mx - *mn;
}

uint64_t next_random(uint64_t& s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}
}  // namespace

TEST_CASE("630-ipoly-conflict-free-for-power-of-two-strides") {
  for (int64_t parts : {2, 4, 8, 16, 32, 64}) {
    for (int64_t slices : {1, 2}) {
      const AddressMap ipoly(params(parts, slices, "ipoly"));
      const int64_t units = parts * slices;
      const int64_t n = 64 * units;
      for (uint64_t stride = 256; stride <= static_cast<uint64_t>(units) * 256 * 4; stride *= 2)
        CHECK(imbalance(ipoly, parts, stride, n) <= 1);
    }
  }
}

TEST_CASE("631-linear-camps-where-ipoly-does-not") {
  const AddressMap linear(params(32, 2, "linear"));
  const AddressMap ipoly(params(32, 2, "ipoly"));
  const int64_t n = 64 * 64;
  const uint64_t worst = 64 * 256;  // one full window: every access on one slice
  CHECK_EQ(imbalance(linear, 32, worst, n), n);
  CHECK(imbalance(ipoly, 32, worst, n) <= 1);
  // XOR folding also spreads this stride.
  const AddressMap xorf(params(32, 2, "xor"));
  CHECK(imbalance(xorf, 32, worst, n) <= n / 8);
}

TEST_CASE("632-mapping-is-a-bijection-within-a-window") {
  for (const char* h : {"linear", "xor", "ipoly"}) {
    for (int64_t parts : {4, 12, 24, 32}) {
      const AddressMap m(params(parts, 2, h));
      const uint64_t units = m.slice_count();
      for (uint64_t window : {uint64_t{0}, uint64_t{7}, uint64_t{12345}}) {
        std::vector<int> hit(units, 0);
        uint64_t local_chunk = ~uint64_t{0};
        for (uint64_t c = 0; c < units; ++c) {
          const DecodedAddress d = m.map((window * units + c) * 256 + 17);
          ++hit[d.global_slice];
          const uint64_t lc = (d.local >> 8) / 2;  // per-slice chunk index
          if (local_chunk == ~uint64_t{0}) local_chunk = lc;
          CHECK_EQ(lc, local_chunk);
          CHECK_EQ(d.local & 255, uint64_t{17});
        }
        for (int v : hit) CHECK_EQ(v, 1);
      }
    }
  }
}

TEST_CASE("633-map-unmap-round-trip-and-fields-cover-all-bits") {
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  for (const char* h : {"linear", "xor", "ipoly"}) {
    for (bool xor_banks : {false, true}) {
      AddressMapParams p = params(24, 2, h);
      p.xor_bank_indexing = xor_banks;
      const AddressMap m(p);
      for (int i = 0; i < 20000; ++i) {
        const uint64_t a = next_random(seed) >> 16;  // 48-bit addresses
        const DecodedAddress d = m.map(a);
        CHECK_EQ(m.unmap(d), a);
        CHECK(d.partition < 24u && d.slice < 2u && d.bank < 16u && d.column < 2048u);
        CHECK_EQ(d.bank_group, d.bank % 4);
        // column | bank | row rebuild the partition-local address exactly.
        const uint64_t raw_bank = xor_banks ? (d.bank ^ (d.row & 15)) : d.bank;
        CHECK_EQ((d.row << 15) | (raw_bank << 11) | d.column, d.local);
      }
    }
  }
}

TEST_CASE("634-ipoly-polynomials-are-irreducible") {
  // Trial division by every polynomial of degree 1..deg/2.
  auto mod = [](uint32_t a, uint32_t b) {
    const int db = 31 - __builtin_clz(b);
    for (int d = 31 - __builtin_clz(a | 1); a != 0 && d >= db; d = 31 - __builtin_clz(a | 1))
      a ^= b << (d - db);
    return a;
  };
  for (uint32_t deg = 1; deg <= 16; ++deg) {
    const uint32_t p = ipoly_polynomial_for_degree(deg);
    CHECK_EQ(31 - __builtin_clz(p), static_cast<int>(deg));
    for (uint32_t q = 2; q < (1u << (deg / 2 + 1)); ++q)
      if (31 - __builtin_clz(q) >= 1 && 31 - __builtin_clz(q) <= static_cast<int>(deg / 2))
        CHECK(mod(p, q) != 0);
  }
  CHECK_EQ(AddressMap(params(32, 2, "ipoly")).ipoly_polynomial(), 0x43u);  // 64 slices
}

TEST_CASE("635-unknown-hash-and-bad-geometry-are-config-errors") {
  try {
    AddressMap m(params(32, 2, "random"));
    CHECK(false);
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()).find("linear, xor, ipoly") != std::string::npos);
  }
  AddressMapParams p = params(32, 2, "ipoly");
  p.interleave_bytes = 384;
  CHECK_THROWS(AddressMap{p}, ConfigError);
  config::GpuConfig g;
  const AddressMap from_cfg(AddressMapParams::from_config(g));
  CHECK_EQ(from_cfg.slice_count(), 64u);
  CHECK(from_cfg.hash() == PartitionHash::ipoly);
}

TEST_CASE("636-xor-bank-indexing-spreads-row-strides") {
  AddressMapParams p = params(1, 1, "linear");
  const uint64_t row_stride = 2048ull * 16;  // same bank, next row
  for (bool xb : {false, true}) {
    p.xor_bank_indexing = xb;
    const AddressMap m(p);
    std::vector<int> banks(16, 0);
    for (uint64_t i = 0; i < 16; ++i) ++banks[m.map(i * row_stride).bank];
    const int used = static_cast<int>(std::count_if(banks.begin(), banks.end(), [](int v) { return v > 0; }));
    CHECK_EQ(used, xb ? 16 : 1);
  }
}

TEST_CASE("637-non-power-of-two-partition-counts-stay-balanced") {
  // 12 and 24 partitions (x2 slices): IPOLY on the power-of-two factor, the
  // odd factor by modulo. Not exactly conflict-free, but far from camping.
  for (int64_t parts : {12, 24}) {
    const AddressMap ipoly(params(parts, 2, "ipoly"));
    const AddressMap linear(params(parts, 2, "linear"));
    const int64_t n = 128 * parts;
    const int64_t even = n / parts;
    bool linear_camps = false;
    for (uint64_t stride = 256; stride <= 256ull * 4096; stride *= 2) {
      CHECK(imbalance(ipoly, parts, stride, n) * 10 <= even * 3);  // within about +-15%
      linear_camps = linear_camps || imbalance(linear, parts, stride, n) >= 2 * even;
    }
    CHECK(linear_camps);
  }
}
