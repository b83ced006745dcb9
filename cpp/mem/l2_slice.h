// One L2 slice (GPGPU-Sim's memory sub-partition): the ROP pipeline that
// requests from the interconnect traverse, the sectored cache (write-back,
// write-validate, MSHRs), the queue of fills coming back from DRAM and the
// queue of finished requests waiting for the reply network.
//
// Queues that cross a clock domain (interconnect -> ROP, DRAM -> fills) are
// stamped with the time in picoseconds at which their entry becomes usable;
// the cache and its miss queue run on L2 cycles. A sector access costs a
// sector's bytes of the slice's `bytes_per_cycle` (unused bandwidth is kept
// as credit for at most two sectors, so a fractional rate averages out);
// fills go at up to as many sectors per cycle.
//
// A split L2 (A100, H100) is two halves, each SM next to one. A request is
// served by the slice its address hashes to; a hit there stands for the hit
// in the SM's own half (which keeps copies of the far half's lines), but a
// miss on a slice of the other half also pays the trip to that half and
// back: its reply leaves `far_cycles` later.
#pragma once
#include <cstdint>

#include "base/timed_queue.h"
#include "cache/cache.h"
#include "mem/request_pool.h"

namespace accelsim::mem {

struct FillItem {
  uint64_t line_addr = 0;
  uint8_t sector = 0;
};

// Dense per-slice counters (beyond the cache's own access/fail matrices).
struct L2SliceCounters {
  uint64_t requests = 0;       // requests taken from the ROP queue
  uint64_t sector_accesses = 0;
  uint64_t access_stalls = 0;  // cycles the head request could not be admitted
  uint64_t fills = 0;
  uint64_t atomics = 0;
  uint64_t busy_cycles = 0;    // cycles with a fill or an access
};

// How fast a slice moves data and where it sits (see above).
struct L2SliceTiming {
  uint32_t bytes_per_cycle = 32;
  uint32_t far_cycles = 0;        // 0: one undivided L2
  bool upper_half = false;        // the slice's half
  uint32_t first_upper_sm = 0;    // SMs from here on sit next to the upper half
};

class L2Slice {
 public:
  // `rop_cycles`: the ROP latency in L2 cycles. The ROP pipe holds every
  // request in its latency (one arrival per cycle) plus `queue_entries`
  // waiting for the cache, so the latency itself never throttles.
  L2Slice(const cache::CacheParams& p, uint32_t queue_entries, uint32_t rop_cycles, uint32_t id,
          const L2SliceTiming& timing = {});

  uint32_t id() const { return id_; }
  cache::Cache& cache() { return cache_; }
  const cache::Cache& cache() const { return cache_; }
  const L2SliceCounters& counters() const { return counters_; }
  // Atomics per stream slot from now on ([stream], the run's l2.atomics row
  // for this slice; nullptr = off).
  void count_atomics_into(uint64_t* by_stream) { atomics_by_stream_ = by_stream; }

  // Interconnect side: a request enters the ROP pipeline and reaches the
  // cache at `ready_ps`.
  bool can_accept() const { return !rop_.full(); }
  void accept(uint32_t req, uint64_t ready_ps) { rop_.push(req, ready_ps); }

  // DRAM side: a sector's data arrives at `ready_ps`.
  // Room for every sector of one line (a DRAM read covers at most a line).
  bool can_take_fill() const { return fills_.free_slots() >= 8; }
  void take_fill(const FillItem& f, uint64_t ready_ps) { fills_.push(f, ready_ps); }

  // One L2 cycle (`now`) at time `t_ps`. Returns true if anything moved.
  bool tick(uint64_t now, uint64_t t_ps, RequestPool& pool);

  // Finished requests for the reply network, oldest first (ready at once),
  // and those that missed on a far slice (ready `far_cycles` after their fill).
  TimedQueue<uint32_t>& done() { return done_; }
  TimedQueue<uint32_t>& far_done() { return far_done_; }

  // Earliest time (ps) the slice has internal work after running at t_ps
  // (period = the L2 clock period); UINT64_MAX when nothing is queued. The
  // cache's miss queue is drained by the partition and is not counted here.
  uint64_t next_event_ps(uint64_t t_ps, uint64_t period_ps) const;
  bool idle() const { return rop_.empty() && fills_.empty() && done_.empty() && far_done_.empty(); }

 private:
  bool do_fill(uint64_t now, uint64_t t_ps, RequestPool& pool);
  bool do_access(uint64_t now, RequestPool& pool);
  void served(uint32_t id, uint8_t granules, RequestPool& pool, uint64_t now, bool filled = false);
  bool far_from(uint16_t sm) const;
  void apply_atomic(const InFlight& r, uint32_t sector, uint64_t now);

  cache::Cache cache_;
  uint32_t id_;
  bool fetch_on_write_;
  TimedQueue<uint32_t> rop_;      // request ids, ready in ps
  TimedQueue<FillItem> fills_;    // DRAM data, ready in ps
  TimedQueue<uint32_t> done_;     // finished request ids
  TimedQueue<uint32_t> far_done_;  // finished misses of far SMs, ready in L2 cycles
  L2SliceTiming timing_;
  uint32_t fills_per_cycle_ = 1;
  uint64_t credit_ = 0;          // access bytes available
  uint64_t credit_cycle_ = 0;    // L2 cycle the credit was last topped up
  L2SliceCounters counters_;
  uint64_t* atomics_by_stream_ = nullptr;
};

}  // namespace accelsim::mem
