// 70x: counter families, registry, snapshots and per-kernel reductions.
#include <vector>

#include "base/error.h"
#include "stats/counter_reduce.h"
#include "stats/counter_registry.h"
#include "stats/kernel_counters.h"
#include "stats/run_stats.h"
#include "tests/harness.h"

using namespace accelsim::stats;

namespace {

// l2.accesses[slice=2, stream=3, type={R,W}, outcome={HIT,MISS,MSHR_HIT}]
CounterFamily& add_l2(CounterRegistry& reg) {
  return reg.add("l2.accesses", "l2", "sector", "L2 sector accesses",
                 {instance_dim("slice", 2), stream_dim(reg.stream_slots()),
                  category_dim("access_type", {"R", "W"}),
                  category_dim("outcome", {"HIT", "MISS", "MSHR_HIT"})});
}

}  // namespace

TEST_CASE("700-family-row-major-strides") {
  CounterRegistry reg(3);
  CounterFamily& f = add_l2(reg);
  CHECK_EQ(f.size(), size_t(2 * 3 * 2 * 3));
  CHECK_EQ(f.stride(0), size_t(18));
  CHECK_EQ(f.stride(1), size_t(6));
  CHECK_EQ(f.stride(3), size_t(1));
  CHECK_EQ(f.stream_axis(), 1);
  // An event site holding its slice pointer lands on the named element.
  uint64_t* slice1 = f.slice({1});
  ++slice1[2 * f.stride(1) + 1 * f.stride(2) + 2];
  CHECK_EQ(f.at({1, 2, 1, 2}), uint64_t(1));
  CHECK_EQ(f.at({0, 2, 1, 2}), uint64_t(0));
}

TEST_CASE("701-family-rejects-bad-shapes-and-indices") {
  CounterRegistry reg(2);
  add_l2(reg);
  CHECK_THROWS(add_l2(reg), accelsim::Error);  // duplicate name
  CHECK_THROWS(reg.add("x", "x", "", "", {category_dim("empty", {})}), accelsim::Error);
  CHECK_THROWS(reg.add("y", "y", "", "", {stream_dim(5)}), accelsim::Error);  // wrong slots
  CHECK_THROWS(reg.find("l2.accesses")->at({0, 2, 0, 0}), accelsim::Error);
  CHECK_THROWS(reg.find("l2.accesses")->at({0, 0}), accelsim::Error);
  CHECK_THROWS(CounterRegistry(0), accelsim::ConfigError);
}

TEST_CASE("702-snapshot-difference") {
  CounterRegistry reg(1);
  CounterFamily& f = reg.add("sm.issued", "sm", "inst", "", {instance_dim("sm", 4)});
  f.data()[1] = 5;
  Snapshot a = reg.snapshot();
  f.data()[1] += 3;
  f.data()[3] += 2;
  Snapshot d = difference(reg.snapshot(), a);
  CHECK_EQ(d.values[0][1], uint64_t(3));
  CHECK_EQ(d.values[0][3], uint64_t(2));
  CHECK_EQ(d.values[0][0], uint64_t(0));
}

TEST_CASE("703-reduce-sums-instances-keeps-categories") {
  CounterRegistry reg(2);
  CounterFamily& f = add_l2(reg);
  uint64_t* v = f.data();
  const size_t slice = f.stride(0);  // 2 slots x 2 types x 3 outcomes
  v[0 * slice + 0 * 6 + 0 * 3 + 1] = 4;  // slice 0, stream 0, R, MISS
  v[1 * slice + 0 * 6 + 0 * 3 + 1] = 6;  // slice 1, stream 0, R, MISS
  v[1 * slice + 1 * 6 + 1 * 3 + 0] = 7;  // slice 1, stream 1, W, HIT
  CHECK_EQ(category_size(f), size_t(6));
  std::vector<uint64_t> s0 = reduce_to_categories(f, f.values(), 0);
  CHECK_EQ(s0[1], uint64_t(10));
  CHECK_EQ(s0[3], uint64_t(0));
  std::vector<uint64_t> all = reduce_to_categories(f, f.values(), kAllStreams);
  CHECK_EQ(all[3], uint64_t(7));
  std::vector<uint64_t> per = reduce_per_stream(f, f.values(), 2);
  CHECK_EQ(per[0 * 6 + 1], uint64_t(10));
  CHECK_EQ(per[1 * 6 + 3], uint64_t(7));
}

TEST_CASE("704-per-kernel-rows-count-only-their-stream") {
  // Two kernels on different streams overlap; each row sees only its slot.
  CounterRegistry reg(2);
  CounterFamily& f = add_l2(reg);
  KernelCounters table(reg);
  size_t ra = table.add_row(), rb = table.add_row();
  f.data()[0 * 6 + 0] = 100;  // stream 0 history before either kernel
  KernelCounters::Mark ma = table.begin(0);
  ++f.data()[0 * 6 + 0];                 // kernel A: slice 0 hit
  KernelCounters::Mark mb = table.begin(1);
  const size_t slice = f.stride(0);
  f.data()[slice + 1 * 6 + 1] += 2;      // kernel B: slice 1 misses
  ++f.data()[slice + 0 * 6 + 0];         // kernel A: slice 1 hit
  table.finish(ra, ma);
  ++f.data()[1 * 6 + 1];                 // kernel B: one more miss
  table.finish(rb, mb);
  auto rows = table.family_rows(0);
  CHECK_EQ(rows[ra * 6 + 0], uint64_t(2));
  CHECK_EQ(rows[ra * 6 + 1], uint64_t(0));
  CHECK_EQ(rows[rb * 6 + 1], uint64_t(3));
  CHECK_EQ(rows[rb * 6 + 0], uint64_t(0));
}

TEST_CASE("705-stream-ids-per-slot") {
  CounterRegistry reg(2);
  reg.set_stream_id(1, 0x7f00aa);
  CHECK_EQ(reg.stream_ids()[1], uint64_t(0x7f00aa));
  CHECK_THROWS(reg.set_stream_id(2, 1), accelsim::Error);
}

TEST_CASE("706-reduce-any-layout-matches-the-blocked-fast-path") {
  // [op, stream] is not [instances, stream, categories]: the general walk.
  CounterRegistry reg(2);
  CounterFamily& odd = reg.add("odd", "x", "", "", {category_dim("op", {"a", "b", "c"}),
                                                     stream_dim(2)});
  for (size_t i = 0; i < odd.size(); ++i) odd.data()[i] = i + 1;  // [op][stream]
  std::vector<uint64_t> s1 = reduce_to_categories(odd, odd.values(), 1);
  CHECK_EQ(s1[0], uint64_t(2));
  CHECK_EQ(s1[2], uint64_t(6));
  std::vector<uint64_t> all = reduce_to_categories(odd, odd.values(), kAllStreams);
  CHECK_EQ(all[1], uint64_t(3 + 4));
  // No stream dimension: everything counts for every slot.
  CounterFamily& flat = reg.add("flat", "x", "", "", {instance_dim("sm", 3)});
  flat.data()[2] = 5;
  CHECK_EQ(reduce_to_categories(flat, flat.values(), 1)[0], uint64_t(5));
}

TEST_CASE("731-rebinding-returns-the-family-and-snapshots-accumulate") {
  CounterRegistry reg(1);
  CounterFamily& f = reg.add("x.count", "x", "", "", {instance_dim("sm", 2), stream_dim(1)});
  f.data()[1] = 7;
  CHECK_THROWS(reg.add("x.count", "x", "", "", {instance_dim("sm", 2), stream_dim(1)}), accelsim::Error);
  reg.set_rebinding(true);
  CounterFamily& again = reg.add("x.count", "x", "", "", {instance_dim("sm", 2), stream_dim(1)});
  CHECK(&again == &f);  // a new component counts on where the old one did
  CHECK_EQ(again.values()[1], uint64_t(7));
  CHECK_THROWS(reg.add("x.count", "x", "", "", {instance_dim("sm", 3), stream_dim(1)}), accelsim::Error);
  reg.set_rebinding(false);
  CHECK_EQ(reg.index_of("x.count"), size_t(0));
  CHECK_EQ(reg.index_of("nope"), SIZE_MAX);
  Snapshot total;
  accumulate(total, reg.snapshot());
  accumulate(total, reg.snapshot());
  CHECK_EQ(total.values[0][1], uint64_t(14));
}

TEST_CASE("732-a-run-snapshot-of-its-streams-gives-the-same-since-as-a-full-one") {
  RunStats stats(4);
  CounterFamily& f = add_l2(stats.registry);
  CounterFamily& g = stats.registry.add("sm.issued", "sm", "inst", "", {instance_dim("sm", 3)});
  stats.seal();
  uint64_t* v = f.data();
  for (size_t i = 0; i < f.size(); ++i) v[i] = 10 * i;
  g.data()[2] = 4;
  const Snapshot full = stats.registry.snapshot(), two = stats.registry.snapshot(2);
  CHECK_EQ(two.slots, size_t(2));
  CHECK_EQ(two.values[0].size(), f.size() / 4 * 2);  // streams 2 and 3 left out
  CHECK_EQ(two.values[1].size(), g.size());          // no stream axis: whole
  for (size_t i = 0; i < f.size(); ++i) v[i] += i % 7;
  g.data()[2] += 5;
  auto a = stats.since(full, 0, 2), b = stats.since(two, 0, 2);
  const CounterFamily& fa = a->registry.family(0);
  const CounterFamily& fb = b->registry.family(0);
  CHECK_EQ(fa.size(), fb.size());
  for (size_t i = 0; i < fa.size(); ++i) CHECK_EQ(fa.values()[i], fb.values()[i]);
  CHECK_EQ(fb.at({1, 1, 1, 1}), uint64_t((1 * 24 + 1 * 6 + 1 * 3 + 1) % 7));  // slice stride 4 x 2 x 3
  CHECK_EQ(b->registry.family(1).values()[2], uint64_t(5));
  CHECK_THROWS(stats.since(two, 0, 3), accelsim::Error);  // more streams than it holds
  CHECK_THROWS(difference(full, two), accelsim::Error);
}
