// Category indices of the memory-side counter families (below L1; their
// layouts: mem/memory_families.h). Every family has a stream dimension so
// that per-stream numbers are attributed where the event happens.
#pragma once
#include <cstdint>

#include "stats/counter_registry.h"

namespace accelsim::stats {

enum class DramOp : uint8_t { READ, WRITE, ACTIVATE, ROW_HIT, COUNT };
inline constexpr int kDramOps = int(DramOp::COUNT);

enum class IcntDir : uint8_t { REQUEST, REPLY, COUNT };
inline constexpr int kIcntDirs = int(IcntDir::COUNT);

}  // namespace accelsim::stats
