#include "sim/parallel_sms.h"

#include <algorithm>
#include <chrono>

#include "base/error.h"

namespace accelsim::sim {

bool OutboundPort::send(const MemRequest& req, Cycle now) {
  if (!buffering_) return below_->send(req, now);
  if (used_ == buf_.size())  // the LD/ST unit broke its per-tick bound
    throw Error("parallel SM phase: more than " + std::to_string(kMaxSendsPerTick) +
                " sends from one SM in a cycle");
  const uint64_t cost = below_->admission_cost(req);
  const bool ok = cost <= room_;
  if (ok) room_ -= cost;
  buf_[used_++] = Sent{req, now, ok};
  return ok;
}

void OutboundPort::commit() {
  for (size_t i = 0; i < used_; ++i) {
    const Sent& s = buf_[i];
    if (below_->send(s.req, s.now) != s.accepted)
      throw Error("parallel SM phase: the level below " +
                  std::string(s.accepted ? "refused" : "accepted") +
                  " a request its admission predicted otherwise (SM " + std::to_string(s.req.sm) +
                  ", cycle " + std::to_string(s.now.count()) + ")");
  }
  used_ = 0;
}

ParallelSms::ParallelSms(unsigned threads, MemPort* below, bool adaptive)
    : below_(below), pool_(threads), adaptive_(adaptive) {}

MemPort* ParallelSms::port_for(uint16_t id) {
  if (id != ports_.size()) throw Error("parallel SM phase: ports are made in SM order");
  ports_.push_back(std::make_unique<OutboundPort>(below_));
  return ports_.back().get();
}

void ParallelSms::tick_one(void* self, size_t i) {
  auto* p = static_cast<ParallelSms*>(self);
  p->due_[i]->tick(p->now_);
}

bool ParallelSms::tick(std::vector<std::unique_ptr<sm::Sm>>& sms, Cycle now,
                       Cycle& progress_at) {
  due_.clear();
  for (auto& s : sms)
    if (s->wake_cycle() <= now) due_.push_back(s.get());
  bool retired = false;
  auto settle = [&](sm::Sm& s) {
    retired |= s.take_retired() > 0;
    progress_at = latest(progress_at, s.last_progress());
  };
  if (adaptive_ && backoff_.count())
    backoff_.window_end(std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now().time_since_epoch()).count());
  if ((adaptive_ && !backoff_.parallel()) || due_.size() < kMinSmsPerThread * pool_.threads() ||
      !below_->admission_exact(due_.size() * OutboundPort::kMaxSendsPerTick)) {
    for (sm::Sm* s : due_) {  // as the sequential loop does
      ports_[s->id()]->direct();
      s->tick(now);
      settle(*s);
    }
    return retired;
  }
  for (sm::Sm* s : due_) ports_[s->id()]->open(below_->admission_room(s->id()));
  now_ = now;
  pool_.run(due_.size(), &ParallelSms::tick_one, this);
  for (sm::Sm* s : due_) {  // serial commit, in SM order
    ports_[s->id()]->commit();
    settle(*s);
  }
  return retired;
}

unsigned resolve_threads(int64_t requested, int64_t sms) {
  int64_t n = requested > 0 ? requested : int64_t(usable_cores()) - int64_t(busy_cores());
  return unsigned(std::clamp<int64_t>(n, 1, std::max<int64_t>(1, sms)));
}

}  // namespace accelsim::sim
