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
  // `share_sms`: CTAs of different kernels may sit on one SM at once
  // (concurrent_kernels_per_sm); otherwise an SM takes another kernel's CTAs
  // only once it is empty, and kernels overlap side by side on separate SMs.
  CtaDispatcher(size_t num_sms, bool share_sms)
      : sm_kernel_(num_sms, kNoKernel), sm_carveout_(num_sms, 0), share_sms_(share_sms) {}

  struct Kernel {
    uint64_t uid = 0;                 // launch order, unique in the run
    KernelSource* src = nullptr;
    Occupancy occ;
    sm::UnitMap units;
    sm::CtaShape shape;
    trace::ThreadBlockTrace next_tb;  // prefetched block, valid if have_next
    bool have_next = false;
    Cycle start{0};                   // first cycle a CTA may launch
    Cycle first_cta = Cycle::max();   // cycle its first CTA landed on an SM
    uint32_t resident = 0;            // CTAs on SMs (SMs decrement on retirement)
    uint64_t dispatched = 0;          // CTAs handed to SMs so far (sampling, progress reports)
    bool finished() const { return !have_next && resident == 0; }
  };

  // Registers a kernel whose CTAs may launch from cycle `start`.
  // Its events count in stream slot `stream` (CtaShape::stream).
  Kernel& launch(KernelSource& src, const Occupancy& occ, const std::vector<sm::UnitKind>& kinds,
                 Cycle start, uint8_t stream = 0);
  // Hands out CTAs that fit; call once per cycle.
  void dispatch(std::vector<std::unique_ptr<sm::Sm>>& sms, Cycle now);
  // An SM retired a CTA: there may be room again.
  void cta_retired() { room_ = true; }
  // The next cycle after `now` at which dispatch may launch something.
  Cycle next_cycle(Cycle now) const;
  // Forgets kernels that are finished.
  void drop_finished();
  // Hands out no more of k's CTAs (intra-kernel sampling): once its resident
  // CTAs retire, it is finished.
  void stop(Kernel& k) { k.have_next = false; }
  const std::deque<std::unique_ptr<Kernel>>& kernels() const { return kernels_; }

 private:
  static constexpr uint64_t kNoKernel = UINT64_MAX;
  // Whether SM i may take a CTA of k now; switches an empty SM to k.
  bool admit(sm::Sm& s, size_t i, const Kernel& k);

  std::deque<std::unique_ptr<Kernel>> kernels_;
  std::vector<uint64_t> sm_kernel_;    // uid of the kernel an SM is set up for
  std::vector<uint32_t> sm_carveout_;  // its shared-memory carve-out
  bool share_sms_ = false;
  uint64_t next_uid_ = 0;  // stable addresses: SMs point into them
  uint32_t next_sm_ = 0;
  bool room_ = true;
};

}  // namespace accelsim::sim
