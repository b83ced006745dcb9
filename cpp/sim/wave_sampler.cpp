#include "sim/wave_sampler.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace accelsim::sim {

namespace {

// Two-sided 95% quantile of Student's t with `dof` degrees of freedom.
double t95(uint64_t dof) {
  static constexpr std::array<double, 10> kSmall = {12.706, 4.303, 3.182, 2.776, 2.571,
                                                    2.447,  2.365, 2.306, 2.262, 2.228};
  if (dof == 0) return kSmall[0];
  if (dof <= kSmall.size()) return kSmall[dof - 1];
  return dof < 30 ? 2.1 : 1.96;
}

// Rates below this (events per cycle) are too small to judge: noise.
constexpr double kNegligibleRate = 0.01;

// Whether two rates agree within `tol` (relative to the larger).
bool close(double a, double b, double tol) {
  const double big = std::max(a, b);
  return big < kNegligibleRate || std::abs(a - b) <= tol * big;
}

}  // namespace

WaveSampler::WaveSampler(const IntraSampling& opts, uint64_t wave_ctas, uint64_t grid_ctas,
                         const WaveCounts& start)
    : opts_(opts), wave_(wave_ctas), grid_(grid_ctas), marks_{start} {}

bool WaveSampler::worth_it(const IntraSampling& opts, uint64_t wave_ctas, uint64_t grid_ctas) {
  return opts.enabled && opts.window >= 2 && wave_ctas > 0 && grid_ctas >= uint64_t(opts.min_waves) * wave_ctas &&
         grid_ctas >= (2 * uint64_t(opts.window) + 2) * wave_ctas;
}

// Steady: the last `window` waves (never the first, cold caches and the
// launch) run at one rate: their two halves' cycles per wave, IPC, L2 and
// DRAM accesses per cycle within `tolerance`.
bool WaveSampler::steady() const {
  const size_t waves = marks_.size() - 1, h = std::max<size_t>(1, opts_.window / 2);
  if (waves < 2 * h + 1) return false;
  const WaveCounts &first = marks_[waves - 2 * h], &mid = marks_[waves - h], &last = marks_[waves];
  auto rate = [](const WaveCounts& a, const WaveCounts& b, uint64_t WaveCounts::*field) {
    return double(b.*field - a.*field) / double(std::max<uint64_t>(1, b.cycle - a.cycle));
  };
  const double tol = opts_.tolerance;
  if (!close(double(mid.cycle - first.cycle), double(last.cycle - mid.cycle), tol)) return false;
  for (auto field : {&WaveCounts::warp_insts, &WaveCounts::l2_accesses, &WaveCounts::dram_ops})
    if (!close(rate(first, mid, field), rate(mid, last, field), tol)) return false;
  return true;
}

// Samples to spread over the `left` CTAs still to come so that the 95% bound
// of the gaps' projection stays within `tolerance` of the kernel's cycles:
// with per-wave noise s^2 (from the steady waves) and m gaps of n/m waves,
// the variance is about n s^2 + (2/3) n^2 s^2 / m (see project). Never fewer
// than `window`.
uint64_t WaveSampler::samples_needed(uint64_t left) const {
  const size_t waves = marks_.size() - 1;
  double mssd = 0, mean = 0;
  for (size_t w = 1; w < waves; ++w) {
    mean += wave_cycles(w);
    if (w > 1) mssd += (wave_cycles(w) - wave_cycles(w - 1)) * (wave_cycles(w) - wave_cycles(w - 1));
  }
  mean /= double(waves - 1);
  const double s2 = waves > 2 ? mssd / (2.0 * double(waves - 2)) : 0.0, n = double(left) / double(wave_);
  const double total = double(marks_.back().cycle - marks_[0].cycle) + n * mean;
  const double allowed = std::pow(opts_.tolerance * total / 1.96, 2) - n * s2;
  const uint64_t most = left / wave_;
  if (allowed <= 0) return most;
  const double m = std::ceil(2.0 / 3.0 * n * n * s2 / allowed);
  return std::min<uint64_t>(most, std::max<uint64_t>(opts_.window, uint64_t(m)));
}

// One gap before each sample, the gaps of equal size, the last sample the
// grid's last wave. Gaps start at wave boundaries of the simulated CTAs, so
// every sample is one whole wave of the simulated ones. Planned at once, so
// that no gap waits on a wave boundary that comes after its dispatch.
std::vector<Gap> WaveSampler::plan(uint64_t dispatched) {
  if (planned_ || !steady()) return {};
  planned_ = true;
  uint64_t at = (dispatched / wave_ + 1) * wave_, seen = at;  // seen: grid CTAs dispatched or passed over
  for (uint64_t m = samples_needed(grid_ - std::min(grid_, at)); m > 0; --m) {
    const uint64_t left = grid_ - std::min(grid_, seen);
    const uint64_t gap = left > m * wave_ ? (left - m * wave_) / m : 0;
    if (gap < wave_) break;  // nothing worth passing over: the rest is simulated
    gaps_.push_back(Gap{at, gap});
    at += wave_;
    seen += gap + wave_;
  }
  return gaps_;
}

// Each gap's waves at the mean of the cycles per wave of the samples at its
// two ends (the wave before it and the wave after). The 95% bound adds, per
// gap of n waves, the waves' own noise (n s^2), the error of the two ends'
// mean (n^2 s^2 / 2) and a change of rate somewhere inside the gap
// (n^2 d^2 / 12 for ends d apart, the change's place uniform), with s^2 the
// per-wave noise from successive waves' differences (a step between
// regimes raises it rather than hides).
Projection WaveSampler::project(uint64_t end_cycle, uint64_t skipped) const {
  Projection p{end_cycle, 0};
  const size_t waves = marks_.size() - 1;
  if (skipped == 0 || waves < 3) return p;
  double mssd = 0;
  for (size_t w = 2; w < waves; ++w) mssd += std::pow(wave_cycles(w) - wave_cycles(w - 1), 2);
  const double s2 = mssd / (2.0 * double(waves - 2));
  double add = 0, var = 0;
  for (const Gap& g : gaps_) {
    const uint64_t ctas = std::min(g.ctas, skipped);
    if (ctas == 0) break;
    skipped -= ctas;
    const size_t after = size_t(g.at / wave_);
    const double before_c = wave_cycles(after - 1), after_c = after < waves ? wave_cycles(after) : before_c;
    const double n = double(ctas) / double(wave_), d = after_c - before_c;
    add += n * (before_c + after_c) / 2;
    var += n * s2 + n * n * (s2 / 2 + d * d / 12);
  }
  p.end_cycle = end_cycle + uint64_t(std::llround(add));
  p.bound = uint64_t(std::llround(t95(waves - 2) * std::sqrt(var)));
  return p;
}

}  // namespace accelsim::sim
