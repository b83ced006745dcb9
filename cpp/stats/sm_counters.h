// Counters one SM keeps; contiguous plain integers so that a per-kernel number
// is the difference of two snapshots (kernels run one after another).
#pragma once
#include <cstddef>
#include <cstdint>

namespace accelsim::stats {

struct SmCounters {
  uint64_t warp_insts = 0;
  uint64_t thread_insts = 0;
  uint64_t mem_insts = 0;
  uint64_t l1d_hits = 0;          // sector reads served by L1D
  uint64_t l1d_misses = 0;        // sector reads sent below (incl. merged)
  uint64_t l1d_mshr_merges = 0;   // sector misses merged into an in-flight fetch
  uint64_t l1d_writes = 0;        // sector writes (write-through)
  uint64_t l1d_bypass = 0;        // sector reads that skipped L1D
  uint64_t l1d_reservation_fails = 0;  // accesses retried (MSHR / miss queue full)
  uint64_t ldst_busy_cycles = 0;  // cycles the LD/ST pipeline worked on an access
  uint64_t shmem_accesses = 0;    // warp shared-memory instructions
  uint64_t shmem_bank_cycles = 0; // cycles those took (conflicts included)
  uint64_t const_accesses = 0;
  uint64_t icache_misses = 0;
  uint64_t ctas_launched = 0;
  uint64_t active_cycles = 0;     // cycles with at least one resident CTA
  uint64_t ticks = 0;             // cycles the SM was actually ticked (gating)
  uint64_t warp_cycles = 0;       // sum over cycles of resident warps

  SmCounters& operator+=(const SmCounters& o);
  SmCounters operator-(const SmCounters& o) const;
};

}  // namespace accelsim::stats

namespace accelsim::stats {
// The struct is viewed as a row of a counter family (plain uint64 words).
static_assert(sizeof(SmCounters) % sizeof(uint64_t) == 0);
// Field names in declaration order: the labels of that family's last dimension.
extern const char* const kSmCounterNames[];
constexpr size_t kSmCounterFields = sizeof(SmCounters) / sizeof(uint64_t);
}  // namespace accelsim::stats
