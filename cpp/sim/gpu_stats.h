// The SM-side counter families of a run, and the wiring of each SM to its
// slice of them: sm.events / sm.insts / sm.stalls, l1i / l1c / l1d accesses
// and l1d fails, all [sm, stream, ...].
#pragma once
#include <memory>
#include <vector>

#include "sm/sm.h"
#include "stats/counter_registry.h"

namespace accelsim::sim {

void register_sm_families(stats::CounterRegistry& reg, std::vector<std::unique_ptr<sm::Sm>>& sms);

}  // namespace accelsim::sim
