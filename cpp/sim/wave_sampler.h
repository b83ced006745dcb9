// Intra-kernel sampling of one long kernel, in the spirit of TBPoint and
// Photon: the kernel's CTAs retire wave by wave (a wave = the CTAs that fit
// on the GPU at once); at each wave boundary the sampler is shown the
// kernel's cycle and counts. Once the last `window` waves run at steady
// rates (the first wave, which warms the caches, never among them: cycles
// per wave, IPC, L2 and DRAM rates of their two halves within `tolerance`),
// the rest of the grid is sampled systematically: a wave of consecutive CTAs
// is simulated, the CTAs up to the next sample are passed over (never
// dispatched), and so on, the last sample being the grid's last CTAs (its
// tail and drain simulated). A regime that starts late in the kernel (other
// addresses, another L2 or DRAM state) is then seen by the samples after it
// instead of projected from the early waves. `project` fills each gap with
// the cycles per wave interpolated between the samples at its two ends.
// Called at CTA retirements only, never per cycle.
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

// CTAs to pass over once `at` CTAs have been dispatched.
struct Gap {
  uint64_t at = 0;    // simulated (dispatched) CTAs before the gap
  uint64_t ctas = 0;  // CTAs passed over
};

class WaveSampler {
 public:
  // `wave_ctas`: CTAs resident at once on the whole GPU; `start`: counts at
  // the kernel's first CTA (the first wave's start).
  WaveSampler(const IntraSampling& opts, uint64_t wave_ctas, uint64_t grid_ctas, const WaveCounts& start);

  // Whether sampling applies at all (enough waves, a wave that fits).
  static bool worth_it(const IntraSampling& opts, uint64_t wave_ctas, uint64_t grid_ctas);
  // Retired-CTA count (of simulated CTAs) at which the next wave ends.
  uint64_t next_boundary() const { return wave_ * (marks_.size()); }
  // A wave of simulated CTAs ended with these counts.
  void observe(const WaveCounts& at) { marks_.push_back(at); }
  // The gaps to take, once the waves are steady (empty before, and after the
  // plan was handed out once): one before each sample, in dispatch order.
  // `dispatched`: CTAs simulated so far.
  std::vector<Gap> plan(uint64_t dispatched);
  // Once drained at `end_cycle` with `skipped` CTAs passed over (the plan's
  // gaps in order, fewer when the kernel stopped taking them): the gaps
  // filled at the interpolated cycles per wave.
  Projection project(uint64_t end_cycle, uint64_t skipped) const;

 private:
  bool steady() const;
  double wave_cycles(size_t w) const { return double(marks_[w + 1].cycle - marks_[w].cycle); }
  uint64_t samples_needed(uint64_t left) const;

  IntraSampling opts_;
  uint64_t wave_, grid_;
  std::vector<WaveCounts> marks_;  // marks_[i]: counts when i waves had retired
  std::vector<Gap> gaps_;          // planned, in dispatch order
  bool planned_ = false;
};

}  // namespace accelsim::sim
