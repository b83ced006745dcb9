// The level below L1 for tests that build an SM or an LD/ST unit alone: every
// request is accepted, recorded, and answered `latency` cycles later (or
// refused while `refuse_until` has not passed, to test back pressure).
#pragma once
#include <cstdint>
#include <vector>

#include "base/mem_port.h"

namespace accelsim::testing {

struct FixedLatencyPort : MemPort {
  explicit FixedLatencyPort(uint64_t latency) : latency(latency) {}
  void connect(uint16_t sm, ResponseQueue* q) override {
    if (queues.size() <= sm) queues.resize(sm + 1u, nullptr);
    queues[sm] = q;
  }
  bool send(const MemRequest& r, Cycle now) override {
    if (now < Cycle(refuse_until)) return false;
    sent.push_back(r);
    sent_at.push_back(now.count());
    queues[r.sm]->push(now + latency, MemResponse{r.line_addr, r.token, r.sector_mask, r.kind});
    return true;
  }
  uint64_t outstanding() const override { return 0; }

  uint64_t latency;
  uint64_t refuse_until = 0;
  std::vector<MemRequest> sent;
  std::vector<uint64_t> sent_at;
  std::vector<ResponseQueue*> queues;
};

}  // namespace accelsim::testing
