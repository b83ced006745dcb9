// The SM phase of a cycle on several threads, with results that never depend
// on thread timing or count.
//
// Every SM is built over its own OutboundPort instead of the level below.
// While SMs tick (in parallel), a send is decided by the SM alone: the level
// below gave each SM its admission room at the start of the cycle, and the
// request is only recorded in the SM's bounded buffer. In the serial commit
// that follows, the buffers are replayed into the level below in SM order,
// which is exactly the order, the cycle and the state in which the
// single-threaded loop (SM 0's tick, then SM 1's, ...) sends them: nothing an
// SM reads during its tick is written by another SM's tick or by a send, so
// the two runs are the same computation. A cycle in which the level below
// cannot promise that (admission_exact false: e.g. its request pool could
// fill) runs its SMs one after another with direct sends, also as before.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/mem_port.h"
#include "sim/thread_backoff.h"
#include "sim/worker_pool.h"
#include "sm/sm.h"

namespace accelsim::sim {

// One SM's view of the level below during a parallel phase.
class OutboundPort final : public MemPort {
 public:
  // An SM's LD/ST unit sends at most this many requests per tick (one from
  // the L1D miss queue, one from the access stage).
  static constexpr size_t kMaxSendsPerTick = 2;

  explicit OutboundPort(MemPort* below) : below_(below) {}
  void connect(uint16_t sm, ResponseQueue* responses) override { below_->connect(sm, responses); }
  bool send(const MemRequest& req, Cycle now) override;
  uint64_t outstanding() const override { return below_->outstanding(); }

  // Direct: sends go straight below (sequential cycles).
  void direct() { buffering_ = false; }
  // Buffered for one cycle, deciding acceptance from `room`.
  void open(uint64_t room) {
    buffering_ = true;
    room_ = room;
    used_ = 0;
  }
  // Replays the buffered sends below, in order; Error if the level below
  // answers one differently from the prediction (a broken admission contract).
  void commit();

 private:
  struct Sent {
    MemRequest req;
    Cycle now;
    bool accepted;
  };
  MemPort* below_;
  bool buffering_ = false;
  uint64_t room_ = 0;
  size_t used_ = 0;
  std::array<Sent, kMaxSendsPerTick> buf_{};
};

class ParallelSms {
 public:
  // Fewer due SMs than this per thread: the cycle's work (about a microsecond
  // for a few SM ticks) is less than a phase's synchronisation, so it runs
  // sequentially. The choice depends on the simulation state alone.
  static constexpr size_t kMinSmsPerThread = 4;

  // `threads` >= 2 workers (the caller included). `adaptive` (`threads: 0`):
  // fall back to sequential cycles while they are faster (ThreadBackoff).
  ParallelSms(unsigned threads, MemPort* below, bool adaptive = false);
  unsigned threads() const { return pool_.threads(); }
  const ThreadBackoff* backoff() const { return adaptive_ ? &backoff_ : nullptr; }
  // The port SM `id` must be built over (one per SM, in id order).
  MemPort* port_for(uint16_t id);
  // Ticks the SMs due at `now` (wake_cycle() <= now); returns true if any
  // retired a CTA and raises `progress_at` to their latest progress.
  bool tick(std::vector<std::unique_ptr<sm::Sm>>& sms, Cycle now, Cycle& progress_at);

 private:
  static void tick_one(void* self, size_t i);

  MemPort* below_;
  WorkerPool pool_;
  bool adaptive_;
  ThreadBackoff backoff_;
  std::vector<std::unique_ptr<OutboundPort>> ports_;
  std::vector<sm::Sm*> due_;
  Cycle now_{0};
};

// The threads a run uses: `requested`, or for 0 the usable cores that other
// processes leave idle (busy_cores); at most one per SM; 1 = the sequential loop.
unsigned resolve_threads(int64_t requested, int64_t sms);

}  // namespace accelsim::sim
