// 56x: building blocks (timed queue, bandwidth limiter, set index functions,
// MSHR index, standard cache parameters from the GPU config, the tag array's
// victim order).
#include <map>
#include <random>
#include <set>

#include "base/bandwidth.h"
#include "base/error.h"
#include "base/timed_queue.h"
#include "cache/cache.h"
#include "config/gpu_config.h"
#include "tests/harness.h"

using namespace accelsim;
using namespace accelsim::cache;

TEST_CASE("561-timed-queue-ready-cycle-and-bound") {
  TimedQueue<int> q(2);
  CHECK(q.push(1, Cycle(10)));
  CHECK(q.push(2, Cycle(5)));
  CHECK(!q.push(3, Cycle(0)));  // bounded: back-pressure, nothing dropped
  CHECK(!q.front_ready(Cycle(9)));
  CHECK(q.front_ready(Cycle(10)));
  CHECK_EQ(q.front(), 1);
  q.pop();
  CHECK(q.front_ready(Cycle(10)));  // in order: 2 waited behind 1
  CHECK_EQ(q.front(), 2);
  q.pop();
  CHECK(q.empty());
}

TEST_CASE("562-bandwidth-limiter-exact-throughput") {
  BandwidthLimiter bw(64);
  CHECK(bw.try_send(Cycle(0), 128));  // a 128 B line takes two cycles
  CHECK(!bw.can_send(Cycle(1)));
  CHECK(bw.can_send(Cycle(2)));
  int sent = 0;
  for (uint64_t c = 2; c < 102; ++c) sent += bw.try_send(Cycle(c), 32);
  CHECK_EQ(sent, 100);  // 32 B per cycle fits under 64 B/cycle
  BandwidthLimiter narrow(16);
  sent = 0;
  for (uint64_t c = 0; c < 100; ++c) sent += narrow.try_send(Cycle(c), 32);
  CHECK_EQ(sent, 50);
  CHECK_EQ(narrow.next_free_cycle(), uint64_t{100});
}

TEST_CASE("563-set-index-ipoly-spreads-power-of-two-strides") {
  const SetIndexFunction& ipoly = find_set_index("ipoly");
  const SetIndexFunction& linear = find_set_index("linear");
  SetIndexParams p{32, 5, true};
  for (uint64_t stride : {1, 2, 4, 32, 64, 1024}) {
    std::set<uint32_t> sets;
    for (uint64_t i = 0; i < 32; ++i) sets.insert(ipoly.index(i * stride, p));
    CHECK_EQ(sets.size(), size_t{32});  // conflict-free for every power-of-two stride
  }
  std::set<uint32_t> lin;
  for (uint64_t i = 0; i < 32; ++i) lin.insert(linear.index(i * 32, p));
  CHECK_EQ(lin.size(), size_t{1});  // the camping IPOLY avoids
  SetIndexParams odd{48, 0, false};
  CHECK_EQ(linear.index(100, odd), uint32_t{100 % 48});
  CacheParams cp;
  cp.size_bytes = 3 * 4 * 128;  // 3 sets
  cp.set_index = "ipoly";
  CHECK_THROWS(Cache{cp}, ConfigError);
}

TEST_CASE("564-mshr-index-survives-churn") {
  MshrTable m(64, 2);
  std::map<uint64_t, int32_t> ref;
  std::mt19937_64 rng(7);
  for (int step = 0; step < 20000; ++step) {
    uint64_t key = MshrTable::key((rng() % 97) * 128, rng() % 4);
    auto it = ref.find(key);
    if (it != ref.end() && rng() % 2) {
      m.release(it->second);
      ref.erase(it);
    } else if (it == ref.end() && !m.full()) {
      ref[key] = m.open(key);
    }
    for (auto& [k, id] : ref) CHECK_EQ(m.find(k), id);
  }
  CHECK_EQ(m.in_use(), uint32_t(ref.size()));
}

TEST_CASE("565-cache-params-from-gpu-config") {
  config::GpuConfig cfg;
  Cache l1(l1d_params(cfg, 128 * 1024, 4));
  CHECK_EQ(l1.tags().ways(), uint32_t{256});  // 32 KiB @ 64 ways -> 128 KiB @ 256 ways
  CHECK(l1.params().streaming);
  CHECK(l1.params().write_policy == WritePolicy::WRITE_THROUGH);
  Cache l2(l2_slice_params(cfg, 1));
  CHECK_EQ(l2.tags().sets(), uint32_t{32});
  CHECK(l2.params().write_alloc == WriteAllocPolicy::WRITE_VALIDATE);
  CHECK(l2.params().writeback_type == AccessType::L2_WRBK);
  Cache l1i(l1i_params(cfg));
  CHECK_EQ(l1i.tags().sectors_per_line(), uint32_t{1});
  Cache l1c(l1c_params(cfg));
  CHECK_EQ(l1c.tags().line_bytes(), uint32_t{64});
  CHECK_THROWS(l1d_params(cfg, 1000, 1), ConfigError);
}

// The victim by definition: the first free way, else the evictable line with
// the smallest stamp (ties to the lowest way), else none.
static const LineMeta* victim_by_scan(TagArray& t, uint32_t set, uint64_t LineMeta::*stamp) {
  std::span<LineMeta> ways = t.lines().subspan(size_t(set) * t.ways(), t.ways());
  for (LineMeta& l : ways)
    if (!l.allocated) return &l;
  const LineMeta* best = nullptr;
  for (const LineMeta& l : ways)
    if (l.reserved == 0 && (!best || l.*stamp < best->*stamp)) best = &l;
  return best;
}

TEST_CASE("567-tag-array-victim-order-matches-a-scan-of-the-set") {
  for (const char* policy : {"lru", "fifo"}) {
    TagArray t(2, 12, 128, 32, policy, "linear");
    uint64_t LineMeta::*stamp = find_replacement_policy(policy).stamp;
    std::mt19937_64 rng(11);
    uint64_t now = 1;
    for (int step = 0; step < 20000; ++step) {
      now += rng() % 3 == 0;  // many accesses share a cycle, so stamps tie
      const uint64_t addr = (rng() % 40) * 128;
      LineMeta* line = t.find(addr);
      const uint32_t op = uint32_t(rng() % 8);
      if (line && op == 0) {
        t.invalidate(*line);
      } else if (line && op == 1) {
        line->reserved ^= 1;  // a fill pending, or landed
      } else if (line) {
        t.touch(*line, Cycle(now));
      } else if (LineMeta* v = t.victim(addr)) {
        t.install(*v, addr, Cycle(now));
      }
      for (uint32_t set = 0; set < 2; ++set)
        CHECK(t.victim(set * 128) == victim_by_scan(t, set, stamp));
    }
  }
}
