// The "simple" fidelity level below L1 (memory_model: simple): every request
// costs a fixed L2-hit or DRAM latency plus queueing behind an aggregate
// bytes-per-cycle limit per level. Whether a sector is in L2 is decided by a
// sectored tag array sized like the L2. Responses are stamped with their
// arrival cycle and pushed straight into the requesting SM's queue.
#pragma once
#include <cstdint>
#include <vector>

#include "base/bandwidth.h"
#include "cache/tag_array.h"
#include "config/gpu_config.h"
#include "ldst/mem_port.h"

namespace accelsim::mem {

struct SimpleMemoryCounters {
  uint64_t l2_read_hits = 0, l2_read_misses = 0, l2_writes = 0, l2_atomics = 0;
  uint64_t dram_reads = 0;  // sectors
};

class SimpleMemory : public ldst::MemPort {
 public:
  SimpleMemory(const config::GpuConfig& cfg, uint32_t num_sms);

  void connect(uint16_t sm, ldst::ResponseQueue* responses) override;
  bool send(const ldst::MemRequest& req, uint64_t now) override;
  uint64_t outstanding() const override { return 0; }  // all answered at send

  // Host-to-device copy: marks the copied sectors present in L2.
  void warm(uint64_t address, uint64_t bytes, uint64_t now);
  const SimpleMemoryCounters& counters() const { return counters_; }

 private:
  // Sectors of req not yet in L2; installs/marks them present.
  uint8_t l2_lookup(uint64_t line_addr, uint8_t sectors, uint64_t now);

  uint64_t l2_latency_, dram_latency_;
  uint32_t sector_bytes_;
  BandwidthLimiter l2_bw_, dram_bw_;
  cache::TagArray l2_tags_;
  std::vector<ldst::ResponseQueue*> sms_;
  SimpleMemoryCounters counters_;
};

}  // namespace accelsim::mem
