#include "sim/gpu_stats.h"

#include "sim/kernel_source.h"
#include <algorithm>
#include <span>

#include "cache/cache_stat_dims.h"
#include "cache/cache_types.h"
#include "stats/mem_stat_slots.h"

namespace accelsim::sim {

namespace {

std::vector<std::string> names(const char* const* list, size_t n) {
  return std::vector<std::string>(list, list + n);
}

stats::Dim inst_class_dim() {
  std::vector<std::string> labels = default_unit_class_names();
  labels.resize(stats::kInstClasses - 1);
  labels.push_back("other");  // config-declared classes beyond the fixed ones
  return stats::category_dim("unit_class", labels);
}

void add_cache_families(stats::CounterRegistry& reg, const char* cache, size_t sms, bool fails) {
  const std::string c = cache;
  const size_t slots = reg.stream_slots();
  reg.add(c + ".accesses", c, "sector", c + " accesses by access type and outcome",
          {stats::instance_dim("sm", sms), stats::stream_dim(slots), cache::access_type_dim(),
           cache::outcome_dim()});
  if (fails)
    reg.add(c + ".fails", c, "sector", c + " reservation fails by reason",
            {stats::instance_dim("sm", sms), stats::stream_dim(slots), cache::access_type_dim(),
             cache::fail_reason_dim()});
}

}  // namespace

void register_sm_families(stats::CounterRegistry& reg, std::vector<std::unique_ptr<sm::Sm>>& sms) {
  const size_t n = sms.size(), slots = reg.stream_slots();
  auto& events = reg.add("sm.events", "sm", "count", "SM events (instructions, L1D, occupancy)",
                         {stats::instance_dim("sm", n), stats::stream_dim(slots),
                          stats::category_dim("event", names(stats::kSmCounterNames,
                                                             stats::kSmCounterFields))});
  auto& insts = reg.add("sm.insts", "sm", "inst", "Warp instructions issued by unit class",
                        {stats::instance_dim("sm", n), stats::stream_dim(slots), inst_class_dim()});
  auto& stalls = reg.add("sm.stalls", "sm", "event",
                         "Issue attempts refused, by reason (events, not cycles: SMs are gated)",
                         {stats::instance_dim("sm", n), stats::stream_dim(slots),
                          stats::category_dim("reason", names(stats::kStallReasonNames,
                                                              stats::kStallReasons))});
  add_cache_families(reg, "l1i", n, false);
  add_cache_families(reg, "l1c", n, false);
  add_cache_families(reg, "l1d", n, true);
  for (size_t i = 0; i < n; ++i) {
    stats::SmStatSlots s;
    s.events = reinterpret_cast<stats::SmCounters*>(events.slice({i}));
    s.insts = insts.slice({i});
    s.stalls = stalls.slice({i});
    s.l1i = reg.find("l1i.accesses")->slice({i});
    s.l1c = reg.find("l1c.accesses")->slice({i});
    s.l1d = reg.find("l1d.accesses")->slice({i});
    s.l1d_fails = reg.find("l1d.fails")->slice({i});
    s.slots = uint32_t(slots);
    sms[i]->count_into(s);
  }
}

}  // namespace accelsim::sim

namespace accelsim::sim {

namespace {
// One family's row of the per-kernel table, or empty when not registered.
std::span<const uint64_t> kernel_row(const stats::KernelCounters& k, const char* name, size_t row) {
  const stats::CounterRegistry& reg = k.registry();
  for (size_t i = 0; i < reg.size(); ++i) {
    if (reg.family(i).name() != name) continue;
    auto rows = k.family_rows(i);
    const size_t width = rows.size() / k.rows();
    return rows.subspan(row * width, width);
  }
  return {};
}
}  // namespace

void memory_fields_from_rows(stats::KernelRecord& rec, const stats::KernelCounters& k, size_t row) {
  using cache::AccessType;
  using cache::Outcome;
  auto l2 = kernel_row(k, "l2.accesses", row);  // [access_type][outcome]
  auto at = [&](AccessType t, Outcome o) { return l2[size_t(t) * cache::kOutcomes + size_t(o)]; };
  rec.l2_read_hits = rec.l2_read_misses = rec.l2_writes = 0;
  if (!l2.empty()) {
    for (AccessType t : {AccessType::GLOBAL_R, AccessType::LOCAL_R}) {
      rec.l2_read_hits += at(t, Outcome::HIT);
      rec.l2_read_misses += at(t, Outcome::MISS) + at(t, Outcome::SECTOR_MISS);
    }
    for (AccessType t : {AccessType::GLOBAL_W, AccessType::LOCAL_W})
      for (int o = 0; o < cache::kOutcomes; ++o)
        if (Outcome(o) != Outcome::RESERVATION_FAIL) rec.l2_writes += at(t, Outcome(o));
  }
  // An atomic's read-modify-write shows as a read plus a write hit: the
  // write part is not a store.
  auto atomics = kernel_row(k, "l2.atomics", row);
  if (!atomics.empty()) rec.l2_writes -= std::min(rec.l2_writes, atomics[0]);
  auto dram = kernel_row(k, "dram.ops", row);  // [op]
  if (dram.size() == size_t(stats::kDramOps)) {
    rec.dram_reads = dram[size_t(stats::DramOp::READ)];
    rec.dram_writes = dram[size_t(stats::DramOp::WRITE)];
    rec.dram_activates = dram[size_t(stats::DramOp::ACTIVATE)];
    rec.dram_row_hits = dram[size_t(stats::DramOp::ROW_HIT)];
    rec.dram_row_misses = rec.dram_activates;
  }
}

}  // namespace accelsim::sim
