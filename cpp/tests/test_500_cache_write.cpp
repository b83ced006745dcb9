// 52x: cache write policies (write-back, write-through, allocation, validate).
#include "cache/cache.h"
#include "tests/harness.h"

using accelsim::Cycle;
using namespace accelsim::cache;
using accelsim::ByteMask;

namespace {

CacheParams wb(WriteAllocPolicy alloc, bool streaming = false) {
  CacheParams p;
  p.name = "l2";
  p.size_bytes = 4 * 2 * 128;
  p.assoc = 2;
  p.write_policy = WritePolicy::WRITE_BACK;
  p.write_alloc = alloc;
  p.mshr_entries = 8;
  p.mshr_max_merge = 4;
  p.miss_queue_entries = 8;
  p.streaming = streaming;
  p.writeback_type = AccessType::L2_WRBK;
  p.write_alloc_type = AccessType::L2_WR_ALLOC_R;
  return p;
}

CacheRequest req(AccessType t, uint64_t line, uint8_t sector, ByteMask bytes, uint32_t tag = 0) {
  CacheRequest r;
  r.type = t;
  r.line_addr = line;
  r.sector = sector;
  r.bytes = bytes;
  r.tag = tag;
  return r;
}

CacheRequest read(uint64_t line, uint8_t s) {
  return req(AccessType::GLOBAL_R, line, s, ByteMask::range(s * 32, 32));
}
CacheRequest write(uint64_t line, uint8_t s, unsigned first, unsigned n, uint32_t tag = 0) {
  return req(AccessType::GLOBAL_W, line, s, ByteMask::range(first, n), tag);
}
uint64_t set0(uint64_t k) { return k * 4 * 128; }

}  // namespace

TEST_CASE("521-cache-write-back-eviction-produces-write-back") {
  Cache c(wb(WriteAllocPolicy::WRITE_VALIDATE));
  CHECK(c.access(write(set0(0), 1, 32, 32), Cycle(0)).outcome == Outcome::MISS);
  CHECK(c.miss_queue().empty());  // write-back + validate: nothing goes below yet
  c.access(write(set0(1), 0, 0, 32), Cycle(1));
  c.access(write(set0(2), 0, 0, 32), Cycle(2));  // evicts set0(0), the LRU line
  CHECK_EQ(c.miss_queue().size(), size_t{1});
  const OutRequest& out = c.miss_queue().front();
  CHECK(out.write);
  CHECK(out.type == AccessType::L2_WRBK);
  CHECK_EQ(out.line_addr, set0(0));
  CHECK_EQ(int(out.sector_mask), 2);
  CHECK(out.bytes == ByteMask::range(32, 32));
}

TEST_CASE("522-cache-write-validate-full-sector-then-read-hits") {
  Cache c(wb(WriteAllocPolicy::WRITE_VALIDATE));
  c.access(write(0x1000, 2, 64, 16), Cycle(0));
  c.access(write(0x1000, 2, 80, 16), Cycle(1));  // completes the sector
  CHECK(c.access(read(0x1000, 2), Cycle(2)).outcome == Outcome::HIT);
  CHECK(c.miss_queue().empty());  // no fetch was ever needed
}

TEST_CASE("523-cache-write-validate-partial-sector-then-read-fetches") {
  Cache c(wb(WriteAllocPolicy::WRITE_VALIDATE));
  c.access(write(0x1000, 0, 0, 8), Cycle(0));
  CHECK(c.access(read(0x1000, 0), Cycle(1)).outcome == Outcome::SECTOR_MISS);
  CHECK_EQ(c.miss_queue().size(), size_t{1});
  CHECK(!c.miss_queue().front().write);
  c.fill(0x1000, 0, Cycle(5));  // fetched data merges under the written bytes
  CHECK(c.access(read(0x1000, 0), Cycle(6)).outcome == Outcome::HIT);
  std::vector<OutRequest> out;
  c.flush(out);  // still modified: the whole, now readable sector goes back
  CHECK_EQ(out.size(), size_t{1});
  CHECK(out[0].bytes == ByteMask::range(0, 32));
}

TEST_CASE("524-cache-write-through-no-allocate") {
  CacheParams p = wb(WriteAllocPolicy::NO_ALLOCATE, true);
  p.write_policy = WritePolicy::WRITE_THROUGH;
  Cache c(p);
  CHECK(c.access(write(0x1000, 0, 0, 32), Cycle(0)).outcome == Outcome::MISS);
  CHECK_EQ(c.miss_queue().size(), size_t{1});
  CHECK(c.miss_queue().front().write);
  CHECK(c.access(read(0x1000, 0), Cycle(1)).outcome == Outcome::MISS);  // nothing was allocated
  c.fill(0x1000, 0, Cycle(2));
  CHECK(c.access(write(0x1000, 0, 0, 4), Cycle(3)).outcome == Outcome::HIT);  // hit: still sent below
  CHECK_EQ(c.miss_queue().size(), size_t{3});
  std::vector<OutRequest> dirty;
  c.flush(dirty);
  CHECK(dirty.empty());  // write-through never holds modified data
}

TEST_CASE("525-cache-fetch-on-write-applies-write-on-fill") {
  Cache c(wb(WriteAllocPolicy::FETCH_ON_WRITE));
  CHECK(c.access(write(0x1000, 1, 40, 4, 77), Cycle(0)).outcome == Outcome::MISS);
  CHECK(c.miss_queue().front().type == AccessType::L2_WR_ALLOC_R);
  auto back = c.fill(0x1000, 1, Cycle(3));
  CHECK_EQ(back.size(), size_t{1});
  CHECK_EQ(back[0].tag, uint32_t{77});
  CHECK(c.access(read(0x1000, 1), Cycle(4)).outcome == Outcome::HIT);
  std::vector<OutRequest> out;
  c.flush(out);
  CHECK_EQ(out.size(), size_t{1});
  CHECK_EQ(int(out[0].sector_mask), 2);
}

TEST_CASE("526-cache-invalidate-and-flush") {
  Cache c(wb(WriteAllocPolicy::WRITE_VALIDATE));
  c.access(write(0x1000, 0, 0, 32), Cycle(0));
  c.access(read(0x2000, 1), Cycle(0));  // a fill pending across the invalidation
  std::vector<OutRequest> out;
  c.flush(out);
  CHECK_EQ(out.size(), size_t{1});
  out.clear();
  c.flush(out);
  CHECK(out.empty());  // flushed lines are clean
  CHECK(c.access(read(0x1000, 0), Cycle(1)).outcome == Outcome::HIT);
  c.invalidate_all();
  CHECK(c.access(read(0x1000, 0), Cycle(2)).outcome == Outcome::MISS);
  CHECK_EQ(c.fill(0x2000, 1, Cycle(3)).size(), size_t{1});
  CHECK(c.access(read(0x2000, 1), Cycle(4)).outcome == Outcome::HIT);
}

TEST_CASE("527-cache-streaming-fill-eviction-writes-back") {
  Cache c(wb(WriteAllocPolicy::WRITE_VALIDATE, /*streaming=*/true));
  c.access(write(set0(0), 0, 0, 32), Cycle(0));
  c.access(write(set0(1), 0, 0, 32), Cycle(1));
  c.access(read(set0(2), 0), Cycle(2));  // streaming: no line needed yet
  CHECK_EQ(c.miss_queue().size(), size_t{1});
  CHECK(c.can_fill());
  c.fill(set0(2), 0, Cycle(3));  // allocation on fill evicts the dirty LRU line
  CHECK_EQ(c.miss_queue().size(), size_t{2});
  CHECK(c.miss_queue().at(1).item.type == AccessType::L2_WRBK);
  CHECK_EQ(c.miss_queue().at(1).item.line_addr, set0(0));
}
