// Launched kernels with CTAs still to hand out, and the hand-out itself: one
// CTA per SM per cycle, round robin over SMs, oldest kernel first. Several
// kernels may be in flight at once (streams, later); each counts its CTAs
// resident on SMs, so it knows when it is finished.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "sim/kernel_source.h"
#include "sim/occupancy.h"
#include "sm/sm.h"

namespace accelsim::sim {

class CtaDispatcher {
 public:
  struct Kernel {
    KernelSource* src = nullptr;
    Occupancy occ;
    sm::UnitMap units;
    sm::CtaShape shape;
    trace::ThreadBlockTrace next_tb;  // prefetched block, valid if have_next
    bool have_next = false;
    uint64_t start = 0;               // first cycle a CTA may launch
    uint32_t resident = 0;            // CTAs on SMs (SMs decrement on retirement)
    bool finished() const { return !have_next && resident == 0; }
  };

  // Registers a kernel whose CTAs may launch from cycle `start`.
  Kernel& launch(KernelSource& src, const Occupancy& occ, const std::vector<sm::UnitKind>& kinds,
                 uint64_t start);
  // Hands out CTAs that fit; call once per cycle.
  void dispatch(std::vector<std::unique_ptr<sm::Sm>>& sms, uint64_t now);
  // An SM retired a CTA: there may be room again.
  void cta_retired() { room_ = true; }
  // The next cycle after `now` at which dispatch may launch something.
  uint64_t next_cycle(uint64_t now) const;
  // Forgets kernels that are finished.
  void drop_finished();

 private:
  std::deque<std::unique_ptr<Kernel>> kernels_;  // stable addresses: SMs point into them
  uint32_t next_sm_ = 0;
  bool room_ = true;
};

}  // namespace accelsim::sim
