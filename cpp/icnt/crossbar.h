// An N x M crossbar carrying packets with an opaque POD payload. Storage is
// fixed at construction (ring buffers sized in flits), so moving a packet
// never allocates. Flow:
//   push(src, dst, size, payload)   into the source's input buffer (FIFO);
//   tick(now)                        each output takes at most one flit per
//                                    cycle, round-robin over the sources whose
//                                    head packet wants it; a packet holds its
//                                    output until its last flit has crossed;
//                                    with input lanes (virtual output queues)
//                                    a source offers the head of each lane and
//                                    sends at most one flit per cycle;
//   pop(dst, now, packet)            a packet is deliverable `latency` cycles
//                                    after its last flit crossed.
// A Clocked component on the interconnect clock; time is Cycle throughout.
// Output buffers count in-flight and undelivered flits; a full output stops
// the flits, the input buffer then fills and can_push() turns false: back
// pressure end to end, nothing is dropped.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "base/clocked.h"
#include "base/error.h"
#include "base/ring_buffer.h"
#include "icnt/crossbar_config.h"

namespace accelsim::icnt {

enum class PortCounter : uint8_t { flits, packets, stall_cycles, count };
inline constexpr size_t kPortCounterCount = static_cast<size_t>(PortCounter::count);
inline constexpr Cycle kIcntNever = Clocked::kNever;

template <typename Payload>
class Crossbar final : public Clocked {
  static_assert(std::is_trivially_copyable_v<Payload>, "crossbar payloads are plain values");

 public:
  struct Packet {
    Payload payload;
    uint32_t src;
    uint32_t size_bytes;
    uint32_t flits;
    Cycle ready_cycle;
  };

  Crossbar(const CrossbarConfig& cfg, std::string name);

  bool can_push(uint32_t src, uint32_t size_bytes) const {
    return in_used_[src] + cfg_.flits_for(size_bytes) <= cfg_.in_buffer_flits;
  }
  // Flits the source's input buffer can still take (can_push's room).
  uint32_t free_flits(uint32_t src) const { return cfg_.in_buffer_flits - in_used_[src]; }
  // False (and nothing queued) when the input buffer lacks room.
  bool push(uint32_t src, uint32_t dst, uint32_t size_bytes, const Payload& payload);
  void tick(Cycle now) override;
  const Packet* peek(uint32_t dst, Cycle now) const;
  bool pop(uint32_t dst, Cycle now, Packet& out);

  // The cycle after the last tick while flits wait at inputs, else the
  // earliest delivery; kIcntNever when empty.
  Cycle next_event_cycle() const;
  Cycle next_tick(Cycle now) const override {
    const Cycle e = next_event_cycle();
    return e == kIcntNever ? e : std::max(e, now);
  }
  // Name, packets waiting at inputs and undelivered at outputs.
  std::string describe() const override;
  bool idle() const { return queued_packets_ == 0 && undelivered_packets_ == 0; }

  uint64_t source_counter(uint32_t src, PortCounter c) const { return src_counters_[idx(src, c)]; }
  uint64_t destination_counter(uint32_t dst, PortCounter c) const { return dst_counters_[idx(dst, c)]; }
  const CrossbarConfig& config() const { return cfg_; }
  const std::string& name() const { return name_; }

 private:
  struct InPacket {
    Payload payload;
    uint32_t dst;
    uint32_t size_bytes;
    uint32_t flits;
    uint32_t sent;
  };
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  static constexpr uint32_t kBlocked = kNone - 1;  // winner_ mark: output full this cycle
  static size_t idx(uint32_t port, PortCounter c) { return port * kPortCounterCount + static_cast<size_t>(c); }

  void arbitrate();
  void arbitrate_lanes();
  void move_flit(uint32_t in, uint32_t dst, Cycle now);
  void count_stalls();
  uint32_t lanes() const { return cfg_.input_lanes; }

  CrossbarConfig cfg_;
  std::string name_;
  std::vector<RingBuffer<InPacket>> inputs_;  // [source * lanes + lane]
  std::vector<RingBuffer<Packet>> outputs_;
  std::vector<uint32_t> in_used_;   // flits per input buffer
  std::vector<uint32_t> out_used_;  // flits per output buffer (in flight + waiting)
  std::vector<uint32_t> lock_;      // input (source lane) holding each output mid-packet
  std::vector<uint32_t> last_grant_;
  std::vector<uint32_t> winner_;    // per output, this cycle: an input index
  std::vector<uint8_t> src_busy_;   // lanes: the source sends a flit this cycle
  std::vector<uint32_t> next_lane_; // lanes: where each source's lane scan starts
  uint32_t first_src_ = 0;          // lanes: the source served first this cycle
  std::vector<uint64_t> src_counters_, dst_counters_;
  uint64_t queued_packets_ = 0;
  uint64_t undelivered_packets_ = 0;
  Cycle after_ = 0;  // the cycle after the last tick (0 before the first)
};

}  // namespace accelsim::icnt

#include "icnt/crossbar_impl.h"
