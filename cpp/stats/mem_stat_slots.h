// Names and layouts of the memory-side counter families (below L1): L2
// accesses, DRAM operations, interconnect flits and stalls, each with a
// stream dimension so that per-stream numbers are attributed where the event
// happens. Any memory model (simple or detailed) registers them the same way.
#pragma once
#include <cstdint>

#include "stats/counter_registry.h"

namespace accelsim::stats {

enum class DramOp : uint8_t { READ, WRITE, ACTIVATE, ROW_HIT, COUNT };
inline constexpr int kDramOps = int(DramOp::COUNT);

enum class IcntDir : uint8_t { REQUEST, REPLY, COUNT };
inline constexpr int kIcntDirs = int(IcntDir::COUNT);

// Adds l2.accesses / l2.fails [slice, stream, access_type, outcome|reason],
// dram.ops [channel, stream, op], icnt.flits / icnt.stall_cycles [stream,
// direction] to `reg`.
void add_memory_families(CounterRegistry& reg, uint32_t slices, uint32_t channels);

// Access type / outcome / fail reason labels as the reports spell them
// (GLOBAL_ACC_R, ...: the names researchers know from GPGPU-Sim's logs).
Dim access_type_dim();
Dim outcome_dim();
Dim fail_reason_dim();

}  // namespace accelsim::stats
