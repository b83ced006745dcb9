#include "sim/gpu_stats.h"

#include "sim/kernel_source.h"
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
          {stats::instance_dim("sm", sms), stats::stream_dim(slots), stats::access_type_dim(),
           stats::outcome_dim()});
  if (fails)
    reg.add(c + ".fails", c, "sector", c + " reservation fails by reason",
            {stats::instance_dim("sm", sms), stats::stream_dim(slots), stats::access_type_dim(),
             stats::fail_reason_dim()});
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
