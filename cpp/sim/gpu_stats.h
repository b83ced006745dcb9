// The SM-side counter families of a run, and the wiring of each SM to its
// slice of them: sm.events / sm.insts / sm.stalls, l1i / l1c / l1d accesses
// and l1d fails, all [sm, stream, ...].
#pragma once
#include <memory>
#include <vector>

#include "sm/sm.h"
#include "stats/counter_registry.h"
#include "stats/kernel_counters.h"
#include "stats/kernel_record.h"

namespace accelsim::sim {

void register_sm_families(stats::CounterRegistry& reg, std::vector<std::unique_ptr<sm::Sm>>& sms);

// The kernel record's memory columns (L2 read hits/misses, writes, DRAM
// sectors, activates, row hits) from its row of the per-kernel table: the
// memory families counted for its own stream slot.
void memory_fields_from_rows(stats::KernelRecord& rec, const stats::KernelCounters& k, size_t row);

}  // namespace accelsim::sim
