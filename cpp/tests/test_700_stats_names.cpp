// 721-723: names declared once reach every place that shows them: the SM
// counters' family labels, the kernel-table columns, the cache vocabulary.
#include <set>
#include <string>

#include "cache/cache_stat_dims.h"
#include "cache/cache_types.h"
#include "stats/kernel_columns.h"
#include "stats/sm_counters.h"
#include "tests/harness.h"

using namespace accelsim;

TEST_CASE("721-sm-counter-labels-follow-the-struct") {
  stats::SmCounters c;
  c.warp_insts = 1;
  c.warp_cycles = 2;
  const auto* words = reinterpret_cast<const uint64_t*>(&c);
  CHECK_EQ(std::string(stats::kSmCounterNames[0]), std::string("warp_insts"));
  CHECK_EQ(words[0], 1u);
  CHECK_EQ(std::string(stats::kSmCounterNames[stats::kSmCounterFields - 1]), std::string("warp_cycles"));
  CHECK_EQ(words[stats::kSmCounterFields - 1], 2u);
}

TEST_CASE("722-kernel-columns-are-unique-and-documented") {
  std::set<std::string> seen;
  for (const stats::KernelColumn& c : stats::kernel_columns()) {
    CHECK(seen.insert(c.name).second);
    CHECK(std::string(c.doc).size() > 3);
  }
  CHECK(seen.count("warp_instructions") && seen.count("dram_row_misses"));
  CHECK_EQ(std::string(stats::kernel_columns().front().name), std::string("id"));
}

TEST_CASE("723-access-types-have-one-spelling") {
  const stats::Dim d = cache::access_type_dim();
  CHECK_EQ(d.labels.size(), size_t(cache::kAccessTypes));
  for (int t = 0; t < cache::kAccessTypes; ++t)
    CHECK_EQ(d.labels[size_t(t)], std::string(cache::access_type_name(cache::AccessType(t))));
  CHECK_EQ(std::string(cache::access_type_name(cache::AccessType::GLOBAL_R)), std::string("GLOBAL_ACC_R"));
  CHECK_EQ(std::string(cache::outcome_name(cache::Outcome::MSHR_HIT)), std::string("MSHR_HIT"));
}
