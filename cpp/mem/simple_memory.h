// The "simple" fidelity level below L1 (memory_model: simple): every request
// costs a fixed L2-hit or DRAM latency plus queueing behind an aggregate
// bytes-per-cycle limit per level. Whether a sector is in L2 is decided by a
// sectored tag array sized like the L2. Responses are stamped with their
// arrival cycle and pushed straight into the requesting SM's queue.
#pragma once
#include <cstdint>
#include <vector>

#include "base/bandwidth.h"
#include "base/mem_port.h"
#include "cache/tag_array.h"
#include "mem/simple_memory_params.h"

namespace accelsim::mem {

class SimpleMemory : public MemPort {
 public:
  explicit SimpleMemory(const SimpleMemoryParams& params);

  void connect(uint16_t sm, ResponseQueue* responses) override;
  bool send(const MemRequest& req, Cycle now) override;
  uint64_t outstanding() const override { return 0; }  // all answered at send

  // Host copies (MemPort) take no time here; with memcpy_timing a
  // host-to-device copy marks the copied sectors present in L2 (warm).
  void begin_copy(uint64_t address, uint64_t bytes, Cycle now, bool to_host) override;
  void warm(uint64_t address, uint64_t bytes, Cycle now);
  // Functional warm-up (MemPort::warm): the sectors become present in L2.
  void warm(uint64_t address, uint32_t bytes, bool /*write*/, Cycle now) override {
    warm(address, uint64_t(bytes), now);
  }
  void register_stats(stats::CounterRegistry& reg) override;

 private:
  struct Lookup {
    uint8_t missing = 0;    // sectors not in L2 (fetched from DRAM now)
    Cycle in_flight{0};     // latest fill still on its way for a present sector
  };
  // Looks the sectors up, installs/marks them present, and counts the
  // outcome of each (per stream slot) when `req` is given.
  Lookup l2_lookup(uint64_t line_addr, uint8_t sectors, Cycle now,
                   const MemRequest* req = nullptr);
  size_t line_index(const cache::LineMeta& line);
  void count_l2(const MemRequest& req, uint32_t sector_outcome, uint32_t n);
  void count_traffic(const MemRequest& req, uint32_t nsec, uint64_t waited);

  uint64_t l2_latency_, dram_latency_;  // cycles
  uint32_t sector_bytes_;
  bool memcpy_timing_;
  BandwidthLimiter l2_bw_, dram_bw_;
  cache::TagArray l2_tags_;
  std::vector<ResponseQueue*> sms_;
  // A present sector's fill arrival (line index x sector): an access before
  // then merges with the fill in flight (MSHR_HIT) and waits for it.
  std::vector<Cycle> fill_ready_;
  uint32_t flit_bytes_;
  // The run's families (see register_stats); null = not counted per stream.
  uint64_t *l2_ = nullptr, *dram_ = nullptr, *flits_ = nullptr, *stalls_ = nullptr;
};

}  // namespace accelsim::mem
