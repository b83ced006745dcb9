// One memory partition: a DRAM channel shared by its L2 slices, the fixed
// latency pipe from the slices' miss queues to the DRAM controller
// (GPGPU-Sim's -dram_latency queue) and the return path of read data into
// the slices' fill queues. Slices live in DetailedMemory's flat array; the
// partition owns slices [first_slice, first_slice + slices).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/timed_queue.h"
#include "dram/dram_channel.h"
#include "mem/address_map.h"
#include "mem/l2_slice.h"

namespace accelsim::mem {

class MemoryPartition {
 public:
  MemoryPartition(const dram::DramChannelConfig& cfg, const AddressMap& amap, uint32_t id,
                  uint32_t first_slice, uint32_t slices, uint32_t pipe_entries, uint32_t sector_bytes,
                  std::string name);

  uint32_t id() const { return id_; }
  uint32_t first_slice() const { return first_; }
  uint32_t slice_count() const { return nslices_; }
  dram::DramChannel& channel() { return channel_; }
  const dram::DramChannel& channel() const { return channel_; }

  // L2 side, in L2 cycle `l2_now` at time t: the slice's oldest ready
  // miss-queue entry enters the latency pipe, reaching the controller at
  // t + latency_ps. Returns the arrival time, or Picoseconds{0} if nothing moved.
  Picoseconds collect(L2Slice& s, Cycle l2_now, Picoseconds t, uint64_t latency_ps);

  // One DRAM cycle (`now`, on the DRAM clock) at time t: admit requests whose
  // pipe delay is over, run the channel, hand finished reads to the slices
  // (`slices` is the whole flat array). Returns true if a fill was handed to
  // a slice.
  bool tick(Cycle now, Picoseconds t, std::span<L2Slice> slices);

  // Earliest time the partition has work after a DRAM cycle at t.
  Picoseconds next_event_ps(Picoseconds t, uint64_t period_ps) const;
  bool idle() const { return pipe_.empty() && channel_.idle(); }
  uint64_t fills_blocked() const { return fills_blocked_; }

 private:
  struct Bound {  // one L2 miss-queue entry on its way to the controller
    uint64_t line_addr;
    uint16_t slice;
    uint8_t sector_mask;
    bool write;
    uint8_t stream;  // slot of the access that caused it (statistics)
  };
  struct Read {  // a DRAM read in flight; index = channel tag
    uint64_t line_addr;
    uint16_t slice;
    uint8_t sector_mask;
  };
  bool admit(const Bound& b);

  dram::DramChannel channel_;
  const AddressMap& amap_;
  uint32_t id_, first_, nslices_, sector_bytes_;
  TimedQueue<Bound, Picoseconds> pipe_;  // from the L2 domain to the DRAM domain
  std::vector<Read> reads_;
  std::vector<uint32_t> free_reads_;
  uint64_t fills_blocked_ = 0;  // DRAM cycles a finished read waited for a full fill queue
};

}  // namespace accelsim::mem
