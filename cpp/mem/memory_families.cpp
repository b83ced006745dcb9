#include "mem/memory_families.h"

#include "cache/cache_stat_dims.h"

namespace accelsim::mem {

void add_memory_families(stats::CounterRegistry& reg, uint32_t slices, uint32_t channels) {
  const size_t slots = reg.stream_slots();
  reg.add("l2.accesses", "l2", "sector", "L2 sector accesses by access type and outcome",
          {stats::instance_dim("slice", slices), stats::stream_dim(slots), cache::access_type_dim(),
           cache::outcome_dim()});
  reg.add("l2.fails", "l2", "sector", "L2 reservation fails by reason",
          {stats::instance_dim("slice", slices), stats::stream_dim(slots), cache::access_type_dim(),
           cache::fail_reason_dim()});
  reg.add("dram.ops", "dram", "sector",
          "DRAM sector reads and writes; row activates and row-buffer hits (commands)",
          {stats::instance_dim("channel", channels), stats::stream_dim(slots),
           stats::category_dim("op", {"read", "write", "activate", "row_hit"})});
  reg.add("icnt.flits", "icnt", "flit", "Interconnect flits injected",
          {stats::stream_dim(slots), stats::category_dim("direction", {"request", "reply"})});
  reg.add("icnt.stall_cycles", "icnt", "cycle",
          "Cycles packets waited to be injected (back pressure / bandwidth)",
          {stats::stream_dim(slots), stats::category_dim("direction", {"request", "reply"})});
}

}  // namespace accelsim::mem
