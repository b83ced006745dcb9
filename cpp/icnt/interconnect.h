// The SM <-> L2 interconnect: two independent crossbars, so replies never
// queue behind requests (and a full request network cannot block replies,
// which would deadlock the memory system).
#pragma once
#include <algorithm>
#include <string>

#include "icnt/crossbar.h"

namespace accelsim::icnt {

template <typename RequestPayload, typename ReplyPayload>
class Interconnect {
 public:
  Interconnect(const CrossbarConfig& request_cfg, const CrossbarConfig& reply_cfg, const std::string& name)
      : request_(request_cfg, name + ".request"), reply_(reply_cfg, name + ".reply") {}

  Crossbar<RequestPayload>& request() { return request_; }
  Crossbar<ReplyPayload>& reply() { return reply_; }
  const Crossbar<RequestPayload>& request() const { return request_; }
  const Crossbar<ReplyPayload>& reply() const { return reply_; }

  void tick(Cycle now) {
    request_.tick(now);
    reply_.tick(now);
  }
  Cycle next_event_cycle() const { return earliest(request_.next_event_cycle(), reply_.next_event_cycle()); }
  bool idle() const { return request_.idle() && reply_.idle(); }
  std::string describe() const { return request_.describe() + "\n  " + reply_.describe(); }

 private:
  Crossbar<RequestPayload> request_;
  Crossbar<ReplyPayload> reply_;
};

}  // namespace accelsim::icnt
