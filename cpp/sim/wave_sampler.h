// Intra-kernel sampling of one long kernel, in the spirit of TBPoint and
// Photon: the kernel's CTAs retire wave by wave (a wave = the CTAs that fit
// on the GPU at once); at each wave boundary the sampler is shown the
// kernel's cycle and counts. Once the last `window` waves run at the rates
// of the `window` waves before them (the first wave, which warms the caches,
// never among them): cycles per wave, IPC, L2 and DRAM rates within
// `tolerance`, and the projection's 95% bound is within `tolerance` of the
// kernel's cycles, it says stop. The GPU then dispatches no more of the kernel's CTAs, lets the
// resident ones drain, and `project` adds the CTAs never dispatched at the
// steady cycles per wave. Called at CTA retirements only, never per cycle.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/run_result.h"

namespace accelsim::sim {

// What the kernel's stream slot had counted at a wave boundary.
struct WaveCounts {
  uint64_t cycle = 0;
  uint64_t warp_insts = 0;
  uint64_t l2_accesses = 0;  // sector accesses served (not retries)
  uint64_t dram_ops = 0;     // sectors read and written
};

struct Projection {
  uint64_t end_cycle = 0;  // the kernel's projected end
  uint64_t bound = 0;      // half-width of the 95% interval around it, cycles
};

class WaveSampler {
 public:
  // `wave_ctas`: CTAs resident at once on the whole GPU; `start`: counts at
  // the kernel's first CTA (the first wave's start).
  WaveSampler(const IntraSampling& opts, uint64_t wave_ctas, uint64_t grid_ctas, const WaveCounts& start);

  // Whether sampling applies at all (enough waves, a wave that fits).
  static bool worth_it(const IntraSampling& opts, uint64_t wave_ctas, uint64_t grid_ctas);
  // Retired-CTA count at which the next wave ends.
  uint64_t next_boundary() const { return wave_ * (marks_.size()); }
  // A wave ended with these counts: true when the kernel is steady and
  // enough of it is left to be worth projecting.
  bool observe(const WaveCounts& at, uint64_t dispatched);
  // Once stopped and drained at `end_cycle` with `dispatched` CTAs simulated.
  Projection project(uint64_t dispatched, uint64_t end_cycle) const;

 private:
  bool steady(uint64_t dispatched) const;

  IntraSampling opts_;
  uint64_t wave_, grid_;
  std::vector<WaveCounts> marks_;  // marks_[i]: counts when i waves had retired
};

}  // namespace accelsim::sim
