#include "stats/mem_stat_slots.h"

#include "cache/cache_types.h"

namespace accelsim::stats {

Dim access_type_dim() {
  // Same order as cache::AccessType.
  return category_dim("access_type", {"GLOBAL_ACC_R", "LOCAL_ACC_R", "CONST_ACC_R", "TEXTURE_ACC_R",
                                      "GLOBAL_ACC_W", "LOCAL_ACC_W", "L1_WRBK_ACC", "L2_WRBK_ACC",
                                      "INST_ACC_R", "L1_WR_ALLOC_R", "L2_WR_ALLOC_R"});
}

Dim outcome_dim() {
  std::vector<std::string> labels;
  for (int o = 0; o < cache::kOutcomes; ++o) labels.push_back(cache::outcome_name(cache::Outcome(o)));
  return category_dim("outcome", labels);
}

Dim fail_reason_dim() {
  std::vector<std::string> labels;
  for (int r = 0; r < cache::kFailReasons; ++r)
    labels.push_back(cache::fail_reason_name(cache::FailReason(r)));
  return category_dim("fail_reason", labels);
}

void add_memory_families(CounterRegistry& reg, uint32_t slices, uint32_t channels) {
  const size_t slots = reg.stream_slots();
  reg.add("l2.accesses", "l2", "sector", "L2 sector accesses by access type and outcome",
          {instance_dim("slice", slices), stream_dim(slots), access_type_dim(), outcome_dim()});
  reg.add("l2.fails", "l2", "sector", "L2 reservation fails by reason",
          {instance_dim("slice", slices), stream_dim(slots), access_type_dim(), fail_reason_dim()});
  reg.add("dram.ops", "dram", "sector",
          "DRAM sector reads and writes; row activates and row-buffer hits (commands)",
          {instance_dim("channel", channels), stream_dim(slots),
           category_dim("op", {"read", "write", "activate", "row_hit"})});
  reg.add("icnt.flits", "icnt", "flit", "Interconnect flits injected",
          {stream_dim(slots), category_dim("direction", {"request", "reply"})});
  reg.add("icnt.stall_cycles", "icnt", "cycle",
          "Cycles packets waited to be injected (back pressure / bandwidth)",
          {stream_dim(slots), category_dim("direction", {"request", "reply"})});
}

}  // namespace accelsim::stats
