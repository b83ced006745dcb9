// 50x-51x: sectored cache behaviour (hits, misses, MSHR merging, fails).
#include <bit>
#include <random>
#include <vector>

#include "base/error.h"
#include "cache/cache.h"
#include "tests/harness.h"

using accelsim::Cycle;
using namespace accelsim::cache;

namespace {

// 4 sets x 2 ways of 128 B lines with 32 B sectors: small enough to reason about.
CacheParams small(bool streaming = false) {
  CacheParams p;
  p.name = "test";
  p.size_bytes = 4 * 2 * 128;
  p.assoc = 2;
  p.mshr_entries = 4;
  p.mshr_max_merge = 3;
  p.miss_queue_entries = 8;
  p.streaming = streaming;
  return p;
}

CacheRequest rd(uint64_t line, uint8_t sector, uint32_t tag = 0, uint8_t stream = 0) {
  CacheRequest r;
  r.line_addr = line;
  r.sector = sector;
  r.tag = tag;
  r.stream = stream;
  r.bytes = accelsim::ByteMask::range(sector * 32, 32);
  return r;
}

// Line address of the k-th line that maps to set 0 (linear index, 4 sets).
uint64_t set0(uint64_t k) { return k * 4 * 128; }

}  // namespace

TEST_CASE("501-cache-hit-after-fill") {
  Cache c(small());
  CHECK(c.access(rd(0x1000, 1), Cycle(0)).outcome == Outcome::MISS);
  CHECK_EQ(c.miss_queue().size(), size_t{1});
  CHECK(!c.miss_queue().front().write);
  CHECK_EQ(int(c.miss_queue().front().sector_mask), 2);
  auto back = c.fill(0x1000, 1, Cycle(10));
  CHECK_EQ(back.size(), size_t{1});
  CHECK(c.access(rd(0x1000, 1), Cycle(11)).outcome == Outcome::HIT);
  CHECK_EQ(c.count(AccessType::GLOBAL_R, Outcome::HIT), uint64_t{1});
  CHECK_EQ(c.count(AccessType::GLOBAL_R, Outcome::MISS), uint64_t{1});
}

TEST_CASE("502-cache-same-sector-misses-merge-into-one-mshr") {
  Cache c(small(/*streaming=*/true));
  CHECK(c.access(rd(0x2000, 0, 7), Cycle(0)).outcome == Outcome::MISS);
  CHECK(c.access(rd(0x2000, 0, 8), Cycle(1)).outcome == Outcome::MSHR_HIT);
  CHECK(c.access(rd(0x2000, 0, 9), Cycle(2)).outcome == Outcome::MSHR_HIT);
  CHECK_EQ(c.mshrs().in_use(), uint32_t{1});
  CHECK_EQ(c.miss_queue().size(), size_t{1});  // one fetch for all three
  auto back = c.fill(0x2000, 0, Cycle(50));
  CHECK_EQ(back.size(), size_t{3});
  CHECK_EQ(back[0].tag, uint32_t{7});
  CHECK_EQ(back[1].tag, uint32_t{8});
  CHECK_EQ(back[2].tag, uint32_t{9});
  CHECK_EQ(c.mshrs().in_use(), uint32_t{0});
  CHECK_EQ(c.count(AccessType::GLOBAL_R, Outcome::MSHR_HIT), uint64_t{2});
}

TEST_CASE("503-cache-mshr-merge-limit") {
  Cache c(small(true));  // max_merge = 3
  for (uint32_t i = 0; i < 3; ++i) c.access(rd(0x2000, 2, i), Cycle(i));
  AccessResult r = c.access(rd(0x2000, 2, 99), Cycle(3));
  CHECK(r.outcome == Outcome::RESERVATION_FAIL);
  CHECK(r.fail == FailReason::MSHR_MERGE_FAIL);
  CHECK_EQ(c.fail_count(AccessType::GLOBAL_R, FailReason::MSHR_MERGE_FAIL), uint64_t{1});
  CHECK_EQ(c.fill(0x2000, 2, Cycle(9)).size(), size_t{3});  // the refused one was not kept
}

TEST_CASE("504-cache-mshr-entries-exhausted") {
  Cache c(small(true));  // 4 entries
  for (uint8_t s = 0; s < 4; ++s) CHECK(c.access(rd(0x3000, s), Cycle(s)).outcome == Outcome::MISS);
  AccessResult r = c.access(rd(0x4000, 0), Cycle(5));
  CHECK(r.outcome == Outcome::RESERVATION_FAIL);
  CHECK(r.fail == FailReason::MSHR_ENTRY_FAIL);
  c.fill(0x3000, 0, Cycle(6));
  CHECK(c.access(rd(0x4000, 0), Cycle(7)).outcome == Outcome::MISS);  // a freed entry is reusable
}

TEST_CASE("505-cache-sector-miss-on-present-line") {
  for (bool streaming : {false, true}) {
    Cache c(small(streaming));
    c.access(rd(0x1000, 0), Cycle(0));
    c.fill(0x1000, 0, Cycle(1));
    CHECK(c.access(rd(0x1000, 3), Cycle(2)).outcome == Outcome::SECTOR_MISS);
    CHECK_EQ(c.miss_queue().size(), size_t{2});
    c.fill(0x1000, 3, Cycle(3));
    CHECK(c.access(rd(0x1000, 3), Cycle(4)).outcome == Outcome::HIT);
    CHECK(c.access(rd(0x1000, 0), Cycle(4)).outcome == Outcome::HIT);
  }
}

TEST_CASE("506-cache-lru-evicts-least-recently-used") {
  Cache c(small());
  auto load = [&](uint64_t line, uint64_t now) {
    c.access(rd(line, 0), Cycle(now));
    c.fill(line, 0, Cycle(now));
  };
  load(set0(0), 1);
  load(set0(1), 2);
  CHECK(c.access(rd(set0(0), 0), Cycle(3)).outcome == Outcome::HIT);  // set0(1) is now LRU
  load(set0(2), 4);
  CHECK(c.access(rd(set0(0), 0), Cycle(5)).outcome == Outcome::HIT);
  CHECK(c.access(rd(set0(1), 0), Cycle(6)).outcome == Outcome::MISS);
}

TEST_CASE("507-cache-fifo-evicts-first-allocated") {
  CacheParams p = small();
  p.replacement = "fifo";
  Cache c(p);
  auto load = [&](uint64_t line, uint64_t now) {
    c.access(rd(line, 0), Cycle(now));
    c.fill(line, 0, Cycle(now));
  };
  load(set0(0), 1);
  load(set0(1), 2);
  CHECK(c.access(rd(set0(0), 0), Cycle(3)).outcome == Outcome::HIT);  // does not save it under FIFO
  load(set0(2), 4);
  CHECK(c.access(rd(set0(1), 0), Cycle(5)).outcome == Outcome::HIT);
  CHECK(c.access(rd(set0(0), 0), Cycle(6)).outcome == Outcome::MISS);
}

TEST_CASE("508-cache-non-streaming-line-alloc-fail") {
  Cache c(small(false));
  CHECK(c.access(rd(set0(0), 0), Cycle(0)).outcome == Outcome::MISS);
  CHECK(c.access(rd(set0(1), 0), Cycle(1)).outcome == Outcome::MISS);
  AccessResult r = c.access(rd(set0(2), 0), Cycle(2));  // both ways reserved by pending fills
  CHECK(r.outcome == Outcome::RESERVATION_FAIL);
  CHECK(r.fail == FailReason::LINE_ALLOC_FAIL);
}

TEST_CASE("509-cache-streaming-more-misses-than-ways") {
  Cache c(small(true));  // 2 ways per set, 4 MSHRs
  for (uint64_t k = 0; k < 4; ++k) CHECK(c.access(rd(set0(k), 0), Cycle(k)).outcome == Outcome::MISS);
  CHECK_EQ(c.mshrs().in_use(), uint32_t{4});
  for (uint64_t k = 0; k < 4; ++k) CHECK_EQ(c.fill(set0(k), 0, Cycle(10 + k)).size(), size_t{1});
  // Fills allocate as they land: the last two lines are resident.
  CHECK(c.access(rd(set0(3), 0), Cycle(20)).outcome == Outcome::HIT);
  CHECK(c.access(rd(set0(2), 0), Cycle(21)).outcome == Outcome::HIT);
}

TEST_CASE("510-cache-hit-reserved-on-pending-sector") {
  Cache c(small(false));
  c.access(rd(0x1000, 1, 1), Cycle(0));
  CHECK(c.access(rd(0x1000, 1, 2), Cycle(1)).outcome == Outcome::HIT_RESERVED);
  CHECK_EQ(c.fill(0x1000, 1, Cycle(5)).size(), size_t{2});
}

TEST_CASE("511-cache-miss-queue-full") {
  CacheParams p = small(true);
  p.miss_queue_entries = 2;
  Cache c(p);
  c.access(rd(0x1000, 0), Cycle(0));
  c.access(rd(0x1000, 1), Cycle(0));
  AccessResult r = c.access(rd(0x1000, 2), Cycle(0));
  CHECK(r.outcome == Outcome::RESERVATION_FAIL);
  CHECK(r.fail == FailReason::MISS_QUEUE_FULL);
  CHECK(c.access(rd(0x1000, 0, 5), Cycle(0)).outcome == Outcome::MSHR_HIT);  // merges need no slot
  CHECK_EQ(c.mshrs().in_use(), uint32_t{2});
  c.miss_queue().pop();
  CHECK(c.access(rd(0x1000, 2), Cycle(1)).outcome == Outcome::MISS);
}

TEST_CASE("512-cache-reservation-fail-changes-nothing") {
  Cache c(small(false));
  c.access(rd(set0(0), 0), Cycle(0));
  c.access(rd(set0(1), 0), Cycle(1));
  size_t queued = c.miss_queue().size();
  c.access(rd(set0(2), 0), Cycle(2));
  CHECK_EQ(c.miss_queue().size(), queued);
  CHECK_EQ(c.mshrs().in_use(), uint32_t{2});
  CHECK(!c.fill_pending(set0(2), 0));
}

TEST_CASE("513-cache-unknown-policy-lists-known-names") {
  CacheParams p = small();
  p.replacement = "plru";
  bool listed = false;
  try {
    Cache c(p);
  } catch (const accelsim::ConfigError& e) {
    listed = std::string(e.what()).find("lru, fifo") != std::string::npos;
  }
  CHECK(listed);
  p.replacement = "lru";
  p.set_index = "bogus";
  CHECK_THROWS(Cache{p}, accelsim::ConfigError);
  p.set_index = "linear";
  p.size_bytes = 1000;  // not whole sets
  CHECK_THROWS(Cache{p}, accelsim::ConfigError);
  CHECK_THROWS(parse_write_alloc("sometimes", "l1d_write_allocate"), accelsim::ConfigError);
}

TEST_CASE("514-cache-per-stream-counters") {
  CacheParams p = small(true);
  p.stream_slots = 3;
  Cache c(p);
  c.access(rd(0x1000, 0, 0, /*stream=*/2), Cycle(0));
  c.access(rd(0x1000, 0, 1, /*stream=*/1), Cycle(0));  // another stream's miss is in flight
  c.fill(0x1000, 0, Cycle(3));
  c.access(rd(0x1000, 0, 2, /*stream=*/1), Cycle(4));
  CHECK_EQ(c.count(AccessType::GLOBAL_R, Outcome::MISS, 2), uint64_t{1});
  CHECK_EQ(c.count(AccessType::GLOBAL_R, Outcome::MSHR_HIT, 1), uint64_t{1});
  CHECK_EQ(c.count(AccessType::GLOBAL_R, Outcome::HIT, 1), uint64_t{1});
  CHECK_EQ(c.count(AccessType::GLOBAL_R, Outcome::MISS, 0), uint64_t{0});
  CHECK_EQ(c.access_counts().size(), size_t{3} * kAccessTypes * kOutcomes);
  c.reset_counters();
  CHECK_EQ(c.count(AccessType::GLOBAL_R, Outcome::HIT, 1), uint64_t{0});
}

TEST_CASE("515-cache-rejects-malformed-requests") {
  Cache c(small());
  CHECK_THROWS(c.access(rd(0x1010, 0), Cycle(0)), accelsim::Error);  // not line-aligned
  CHECK_THROWS(c.access(rd(0x1000, 4), Cycle(0)), accelsim::Error);  // sector 4 of 4
  CHECK_THROWS(c.access(rd(0x1000, 0, 0, 1), Cycle(0)), accelsim::Error);  // one stream slot
}

// Random traffic against every write-allocation mode: every accepted read or
// merged write comes back from exactly one fill, and the line index agrees
// with the lines themselves.
TEST_CASE("516-cache-random-traffic-invariants") {
  std::mt19937_64 rng(11);
  for (bool streaming : {false, true})
    for (WriteAllocPolicy alloc : {WriteAllocPolicy::NO_ALLOCATE, WriteAllocPolicy::FETCH_ON_WRITE,
                                   WriteAllocPolicy::WRITE_VALIDATE}) {
      CacheParams p = small(streaming);
      p.write_alloc = alloc;
      p.mshr_entries = 6;
      Cache c(p);
      std::vector<std::pair<uint64_t, uint8_t>> in_flight;  // fetches sent below
      uint64_t waiting = 0, returned = 0;
      auto drain_one = [&](uint64_t now) {
        const OutRequest& o = c.miss_queue().front();
        if (!o.write) in_flight.push_back({o.line_addr, uint8_t(std::countr_zero(o.sector_mask))});
        c.miss_queue().pop();
        (void)now;
      };
      auto fill_one = [&](uint64_t now) {
        size_t k = rng() % in_flight.size();
        auto [line, sector] = in_flight[k];
        in_flight.erase(in_flight.begin() + static_cast<long>(k));
        if (!c.can_fill()) drain_one(now);
        returned += c.fill(line, sector, Cycle(now)).size();
      };
      for (uint64_t now = 0; now < 4000; ++now) {
        CacheRequest r = rd(set0(rng() % 5) + 128 * (rng() % 2), uint8_t(rng() % 4), uint32_t(now));
        if (rng() % 3 == 0) {
          r.type = AccessType::GLOBAL_W;
          r.bytes = accelsim::ByteMask::range(r.sector * 32 + uint32_t(rng() % 2) * 16, 16);
        }
        Outcome o = c.access(r, Cycle(now)).outcome;
        bool merged_write = is_write(r.type) && alloc == WriteAllocPolicy::FETCH_ON_WRITE &&
                            (o == Outcome::MISS || o == Outcome::SECTOR_MISS || o == Outcome::MSHR_HIT);
        bool waits_read = !is_write(r.type) && o != Outcome::HIT && o != Outcome::RESERVATION_FAIL;
        waiting += merged_write || waits_read;
        if (!c.miss_queue().empty() && rng() % 2) drain_one(now);
        if (!in_flight.empty() && rng() % 3 == 0) fill_one(now);
      }
      while (!c.miss_queue().empty()) drain_one(9000);
      while (!in_flight.empty()) fill_one(9001);
      CHECK(waiting > 400);  // the traffic really missed
      CHECK_EQ(returned, waiting);
      CHECK_EQ(c.mshrs().in_use(), uint32_t{0});
      for (const LineMeta& line : c.tags().lines()) {
        if (!line.allocated) continue;
        CHECK(c.tags().find(line.line_addr) == &line);
        CHECK_EQ(int(line.reserved), 0);
      }
    }
}
