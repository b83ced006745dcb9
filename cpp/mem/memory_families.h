// Names and layouts of the memory-side counter families (below L1), which any
// memory model (simple or detailed) registers the same way: l2.accesses /
// l2.fails [slice, stream, access_type, outcome|reason], dram.ops [channel,
// stream, op], icnt.flits / icnt.stall_cycles [stream, direction].
#pragma once
#include <cstdint>

#include "stats/counter_registry.h"

namespace accelsim::mem {

void add_memory_families(stats::CounterRegistry& reg, uint32_t slices, uint32_t channels);

}  // namespace accelsim::mem
