// The detailed memory system below L1 (memory_model: detailed):
//
//   SM --request crossbar--> L2 slice (ROP pipe, sectored cache, MSHRs)
//        --latency pipe--> DRAM channel (per partition) --fills--> L2 slice
//   L2 slice --reply crossbar--> SM response queue
//
// plus the copy engines: one writes host-to-device data into L2, the other
// reads device-to-host data out of it (PCIe is full duplex). Three clock
// domains (interconnect, L2, DRAM) run at their own periods; time is kept in
// picoseconds. Each component has a wake-up time and is ticked only when it
// has work, and the whole model jumps over idle stretches. The three domains
// are interleaved in time here (a hand-off from one domain to another must
// see the other's earlier edges first), so the model registers with the GPU
// as one Clocked component on the core clock: tick(c) brings every domain up
// to the time of core cycle c, next_tick() names the next core cycle at
// which any of them has work.
// Nothing is allocated per request: requests live in a fixed pool and travel
// as 32-bit ids.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/clocked.h"
#include "base/mem_port.h"
#include "icnt/interconnect.h"
#include "mem/address_map.h"
#include "mem/copy_engine.h"
#include "mem/detailed_memory_params.h"
#include "mem/l2_slice.h"
#include "mem/memory_partition.h"
#include "mem/request_pool.h"
#include "mem/wake_set.h"
#include "stats/mem_stat_slots.h"

namespace accelsim::mem {

// Totals over the whole memory system; per-kernel numbers are differences.
struct MemorySummary {
  uint64_t l2_read_hits = 0;     // sectors read from L2 without waiting
  uint64_t l2_read_misses = 0;   // sectors that started a DRAM fetch (MISS + SECTOR_MISS)
  uint64_t l2_read_merged = 0;   // sectors merged on a fetch in flight (HIT_RESERVED + MSHR_HIT)
  uint64_t l2_writes = 0;        // sector writes accepted
  uint64_t l2_atomics = 0;
  uint64_t l2_reservation_fails = 0;
  uint64_t dram_reads = 0, dram_writes = 0;  // column commands (bursts)
  uint64_t dram_activates = 0, dram_row_hits = 0, dram_row_misses = 0;
  uint64_t icnt_request_flits = 0, icnt_reply_flits = 0;
};

class DetailedMemory : public MemPort, public Clocked {
 public:
  explicit DetailedMemory(const DetailedMemoryParams& params);
  ~DetailedMemory() override;

  void connect(uint16_t sm, ResponseQueue* responses) override;
  bool send(const MemRequest& req, Cycle now) override;
  uint64_t outstanding() const override { return pool_.in_use(); }
  // Acceptance depends on the pool (shared: exact while it cannot fill this
  // cycle) and on the SM's own request-network input buffer (in flits).
  uint64_t admission_room(uint16_t sm) const override { return icnt_.request().free_flits(sm); }
  uint64_t admission_cost(const MemRequest& req) const override;
  bool admission_exact(uint64_t requests) const override {
    return pool_.capacity() - pool_.in_use() >= requests;
  }
  std::vector<ClockedPart> clocked_parts() override;

  // Clocked, on core cycles.
  void tick(Cycle core_cycle) override;
  Cycle next_tick(Cycle core_cycle) const override;
  std::string describe() const override;  // what is queued where (deadlock reports)
  // The next core cycle at which any domain has work; kNever when idle.
  Cycle next_event() const;

  // Host copies (MemPort): with memcpy_timing, a host-to-device copy writes
  // its data into L2 through the copy engine; a device-to-host copy (the
  // second engine) reads each sector through L2 (a miss fetches it from
  // DRAM) at the link rate and is done when the last read has been served.
  // Each engine runs one copy at a time; the two run side by side, and
  // beside kernels. Without memcpy_timing nothing happens.
  void begin_copy(uint64_t address, uint64_t bytes, Cycle now, bool to_host) override;
  // Functional warm-up: the L2 slice holding each line takes its sectors.
  void warm(uint64_t address, uint32_t bytes, bool write, Cycle now) override;
  Cycle advance_copy(Cycle now, Cycle limit) override;
  bool copying(bool to_host) const override { return to_host ? copy_out_.busy() : copy_.busy(); }

  MemorySummary summary() const;
  // Per-stream families (l2.accesses/fails/atomics, dram.ops, icnt.flits and
  // stall_cycles); see detailed_memory_stats.cpp.
  void register_stats(stats::CounterRegistry& reg) override;
  bool idle() const;
  void invalidate_caches() override;  // every L2 slice

  // Components, for tests and statistics.
  const AddressMap& address_map() const { return amap_; }
  size_t slice_count() const { return slices_.size(); }
  const L2Slice& slice(size_t i) const { return slices_[i]; }
  size_t partition_count() const { return parts_.size(); }
  const MemoryPartition& partition(size_t i) const { return parts_[i]; }
  MemoryPartition& partition(size_t i) { return parts_[i]; }
  struct IcntPacket {
    uint32_t id;
  };
  using Network = icnt::Interconnect<IcntPacket, IcntPacket>;
  const Network& interconnect() const { return icnt_; }

 private:
  enum Domain : uint8_t { kIcnt, kL2, kDram, kDomains };
  static constexpr Picoseconds kIdle = Picoseconds::max();

  // One edge of a domain: its own cycle number and its time.
  void run_icnt(Cycle cycle, Picoseconds t);
  void run_l2(Cycle cycle, Picoseconds t);
  void run_dram(Cycle cycle, Picoseconds t);
  void inject_copy(CopyEngine& e, bool to_host, Picoseconds t);
  void drain_done(L2Slice& s, Picoseconds t);
  // Replies of finished requests ready by L2 `cycle` into the reply network.
  void drain_queue(L2Slice& s, TimedQueue<uint32_t>& q, Picoseconds t, Cycle cycle);
  uint32_t request_bytes(const InFlight& r) const;
  uint32_t reply_bytes(const InFlight& r) const;
  // Statistics at the event sites (no-ops until register_stats).
  void count_flits(uint8_t stream, stats::IcntDir dir, uint32_t bytes);
  void count_stall(uint8_t stream, stats::IcntDir dir) {
    if (stalls_) ++stalls_[size_t(stream) * stats::kIcntDirs + size_t(dir)];
  }
  // First clock edge of domain d at or after t that it has not run yet.
  Picoseconds edge(Domain d, Picoseconds t) const;
  void wake(Domain d, Picoseconds t) {
    t = edge(d, t);
    if (t < wake_[d]) wake_[d] = t;
  }
  void wake_slice(uint32_t s, Picoseconds t);

  // Destinations of one network with packets in flight (pushed, not yet
  // popped), so a crossbar cycle visits only those outputs.
  struct ActiveSet {
    std::vector<uint32_t> count;  // per destination
    std::vector<uint32_t> list;   // destinations with count > 0
    explicit ActiveSet(size_t n) : count(n, 0) { list.reserve(n); }
    void add(uint32_t d) {
      if (count[d]++ == 0) list.push_back(d);
    }
  };
  // Pops every deliverable packet of `net` for the active destinations;
  // `take(dst, packet)` returns false when that destination cannot take more.
  template <class Take>
  void deliver(icnt::Crossbar<IcntPacket>& net, ActiveSet& active, Cycle cycle, Take take);
  void wake_partition(uint32_t p, Picoseconds t);

  uint64_t period_[kDomains];    // ps per cycle of each domain
  uint64_t core_period_;
  Picoseconds wake_[kDomains];   // next edge each domain must run, kIdle
  Picoseconds ran_[kDomains];    // the last edge run + one period (0 = none)
  uint64_t rop_ps_, dram_fixed_ps_;  // latencies
  uint32_t header_bytes_ = 8;    // control bytes of every packet
  uint32_t slices_per_partition_;
  bool memcpy_timing_;
  AddressMap amap_;
  RequestPool pool_;
  Network icnt_;
  std::vector<L2Slice> slices_;
  std::vector<MemoryPartition> parts_;
  WakeSet slice_wake_, part_wake_;  // when each slice / channel next needs a tick
  ActiveSet req_active_, rep_active_;
  std::vector<ResponseQueue*> sms_;
  CopyEngine copy_;      // host to device: sector writes into L2
  CopyEngine copy_out_;  // device to host: sector reads out of L2
  uint64_t *flits_ = nullptr, *stalls_ = nullptr;  // [stream][direction]
};

}  // namespace accelsim::mem
