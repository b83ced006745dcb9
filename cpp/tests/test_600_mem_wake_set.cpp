// 65x: the wake set the detailed memory uses to tick only the L2 slices and
// DRAM channels that are due, checked against the scan of every part it
// replaces.
#include <random>
#include <vector>

#include "mem/wake_set.h"
#include "tests/harness.h"

using namespace accelsim;
using mem::WakeSet;

TEST_CASE("650-wake-set-takes-due-parts-in-order") {
  WakeSet w;
  w.assign(6, WakeSet::kIdle);
  CHECK(w.next() == WakeSet::kIdle);
  w.lower(4, Picoseconds{30});
  w.lower(1, Picoseconds{50});
  w.lower(1, Picoseconds{20});   // earlier: replaces 50
  w.lower(4, Picoseconds{40});   // later: ignored
  w.set(2, Picoseconds{30});
  CHECK_EQ(w.next(), 20u);
  std::vector<uint32_t> due = w.take_due(Picoseconds{30});
  CHECK_EQ(due.size(), 3u);       // ascending part order, whatever the times
  CHECK_EQ(due[0], 1u);
  CHECK_EQ(due[1], 2u);
  CHECK_EQ(due[2], 4u);
  CHECK(w.at(1) == WakeSet::kIdle);  // taken parts wait until set again
  CHECK(w.next() == WakeSet::kIdle);  // part 1's earlier 50 was replaced, not kept
  CHECK(w.take_due(Picoseconds{100}).empty());
  w.set(3, Picoseconds{70});
  w.set(3, Picoseconds{60});      // set moves it either way
  CHECK_EQ(w.next(), 60u);
  w.set(5, Picoseconds{90});
  w.set(5, Picoseconds{95});     // raising the earliest time moves next() too
  w.set(3, Picoseconds{99});
  CHECK_EQ(w.next(), 95u);
  w.set(3, Picoseconds{60});
  CHECK_EQ(w.take_due(Picoseconds{65}).size(), 1u);
  CHECK_EQ(w.next(), 95u);
  CHECK(w.take_due(Picoseconds{70}).empty());  // 70 was replaced by 60
}

// Random wake-ups, ticks and re-arms, as run_l2 / run_dram make them: the due
// parts and the next wake-up always equal a scan of the per-part times.
TEST_CASE("651-wake-set-matches-a-full-scan") {
  std::mt19937_64 rng(7);
  constexpr uint32_t kParts = 37;
  WakeSet w;
  std::vector<Picoseconds> ref(kParts, Picoseconds{0});
  w.assign(kParts, Picoseconds{0});
  uint64_t t = 0;
  for (int step = 0; step < 20000; ++step) {
    for (int k = int(rng() % 4); k > 0; --k) {  // wake-ups from elsewhere (icnt, DRAM fills)
      const uint32_t p = uint32_t(rng() % kParts);
      const Picoseconds at{t + rng() % 50};
      w.lower(p, at);
      if (at < ref[p]) ref[p] = at;
    }
    if (rng() % 10 == 0) {  // a part moved either way, or to idle
      const uint32_t p = uint32_t(rng() % kParts);
      ref[p] = rng() % 3 == 0 ? WakeSet::kIdle : Picoseconds{t + rng() % 60};
      w.set(p, ref[p]);
    }
    std::vector<uint32_t> want;
    for (uint32_t p = 0; p < kParts; ++p)
      if (ref[p].count() <= t) want.push_back(p);
    const std::vector<uint32_t> got = w.take_due(Picoseconds{t});
    CHECK(got == want);
    for (uint32_t p : got) {  // each ticked part re-arms: later, or idle
      const uint64_t r = rng() % 8;
      ref[p] = r == 0 ? WakeSet::kIdle : Picoseconds{t + 1 + rng() % 40};
      w.set(p, ref[p]);
    }
    Picoseconds min = WakeSet::kIdle;
    for (Picoseconds r : ref) min = earliest(min, r);
    CHECK(w.next() == min);
    t += 1 + rng() % 5;
  }
}
