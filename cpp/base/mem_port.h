// What an SM's LD/ST unit sends below L1, and how answers come back. The
// level below stamps each response with the cycle it arrives; the SM pops it
// then. A simple fixed-latency model and a detailed one fit behind it. Host
// copies (cudaMemcpy) enter the memory through the same contract, so the GPU
// drives either model without knowing which one it holds.
#pragma once
#include <cstdint>

#include <vector>

#include "base/byte_mask.h"
#include "base/clocked.h"
#include "base/ready_heap.h"

namespace accelsim::stats {
class CounterRegistry;
}

namespace accelsim {

struct MemRequest {
  uint64_t line_addr = 0;   // line-aligned address
  uint32_t token = 0;       // handed back in the response
  uint16_t sm = 0;
  uint8_t sector_mask = 0;  // 32 B sectors of the line
  uint8_t kind = 0;         // MemKind
  uint8_t stream = 0;       // stream slot that caused it (statistics below L1)
  ByteMask bytes;           // writes/atomics: line-relative bytes written (none = whole sectors)
};

enum MemKind : uint8_t { kMemRead = 0, kMemWrite = 1, kMemAtomic = 2, kMemInst = 3 };

struct MemResponse {
  uint64_t line_addr = 0;
  uint32_t token = 0;
  uint8_t sector_mask = 0;
  uint8_t kind = 0;
};

using ResponseQueue = ReadyHeap<MemResponse>;

class MemPort {
 public:
  virtual ~MemPort() = default;
  // Connects SM `sm`'s response queue; responses are pushed there.
  virtual void connect(uint16_t sm, ResponseQueue* responses) = 0;
  // False = busy this cycle (back-pressure); the sender retries later.
  virtual bool send(const MemRequest& req, Cycle now) = 0;
  // Requests accepted whose responses are not yet delivered.
  virtual uint64_t outstanding() const = 0;

  // Admission, for senders that tick in parallel and commit their sends
  // later in sender order (sim/parallel_sms.h). send() must then answer as
  // these predict: a request is accepted iff its cost fits in what is left of
  // the sender's room, taken at the start of the cycle. This holds only when
  // acceptance depends on state that nothing but the sender itself changes
  // within a cycle; admission_exact(n) says whether that holds for the next n
  // requests of all senders together (else the cycle runs sequentially).
  // The defaults describe a level that never refuses.
  static constexpr uint64_t kUnlimited = UINT64_MAX;
  virtual uint64_t admission_room(uint16_t /*sm*/) const { return kUnlimited; }
  virtual uint64_t admission_cost(const MemRequest&) const { return 0; }
  virtual bool admission_exact(uint64_t /*requests*/) const { return true; }
  // Components to tick on the other clock domains (interconnect, L2, DRAM),
  // as (ClockDomain, component). The simple model has none.
  struct ClockedPart {
    ClockDomain domain;
    Clocked* component;
  };
  virtual std::vector<ClockedPart> clocked_parts() { return {}; }

  // Host copies. begin_copy starts one at core cycle `now` on the copy engine
  // of its direction (`to_host`: device to host); a level that times copies
  // then reports copying(to_host) until it is done, and advance_copy runs the
  // level from `now` towards `limit` (core cycles), returning the cycle
  // reached: at most `limit` unless done, and early once an engine busy at
  // the call has finished. The defaults describe a level where a copy takes
  // no time.
  virtual void begin_copy(uint64_t /*address*/, uint64_t /*bytes*/, Cycle /*now*/, bool /*to_host*/) {}
  virtual bool copying(bool /*to_host*/) const { return false; }
  virtual Cycle advance_copy(Cycle now, Cycle /*limit*/) { return now; }
  // Functional warm-up (sampled runs): `bytes` at `address` were read
  // (`write`: written) by a kernel that is not simulated; the caches of this
  // level take the data as if it had run, at cycle `now`, taking no time and
  // counting nothing. A level without caches ignores it.
  virtual void warm(uint64_t /*address*/, uint32_t /*bytes*/, bool /*write*/, Cycle /*now*/) {}
  // Registers its counter families (L2, DRAM, interconnect; per stream slot)
  // in the run's registry and counts there from now on. A model without
  // statistics (a test double) registers nothing.
  virtual void register_stats(stats::CounterRegistry&) {}
  // Drops every line the level caches, as a profiler's cache control does
  // before it measures a kernel. Dirty lines are not written back: the data
  // lives in the functional memory, and a profiler does not count the flush.
  virtual void invalidate_caches() {}
};

}  // namespace accelsim
