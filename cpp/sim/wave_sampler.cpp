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

bool WaveSampler::observe(const WaveCounts& at, uint64_t dispatched) {
  marks_.push_back(at);
  return grid_ - std::min(grid_, dispatched) >= wave_ && steady(dispatched);
}

// Steady: the last `window` waves run at the rates of the `window` waves
// before them (cycles per wave, IPC, L2 and DRAM accesses per cycle, within
// `tolerance`), the first wave (cold caches, the launch) never among them;
// and the projection of what is left is already tight: its 95% bound within
// `tolerance` of the kernel's projected cycles.
bool WaveSampler::steady(uint64_t dispatched) const {
  const size_t waves = marks_.size() - 1, k = opts_.window;
  if (waves < 2 * k + 1) return false;
  const WaveCounts &first = marks_[waves - 2 * k], &mid = marks_[waves - k], &last = marks_[waves];
  auto rate = [](const WaveCounts& a, const WaveCounts& b, uint64_t WaveCounts::*field) {
    return double(b.*field - a.*field) / double(std::max<uint64_t>(1, b.cycle - a.cycle));
  };
  const double tol = opts_.tolerance;
  if (!close(double(mid.cycle - first.cycle), double(last.cycle - mid.cycle), tol)) return false;
  for (auto field : {&WaveCounts::warp_insts, &WaveCounts::l2_accesses, &WaveCounts::dram_ops})
    if (!close(rate(first, mid, field), rate(mid, last, field), tol)) return false;
  const Projection p = project(dispatched, last.cycle);
  return double(p.bound) <= tol * double(p.end_cycle - marks_[0].cycle);
}

// The CTAs never dispatched run at the mean cycles per wave of the steady
// waves (the last 2 x window, never the first). The bound is the 95%
// prediction interval of the sum of the remaining waves' cycles, the steady
// waves taken as a sample of the kernel's: t * s * sqrt(n + n^2 / k) for n
// remaining waves and k sampled.
Projection WaveSampler::project(uint64_t dispatched, uint64_t end_cycle) const {
  const size_t waves = marks_.size() - 1;
  const size_t k = std::min<size_t>(2 * size_t(opts_.window), waves > 1 ? waves - 1 : waves);
  Projection p{end_cycle, 0};
  if (k == 0 || dispatched >= grid_) return p;
  std::vector<double> dc;
  for (size_t i = waves - k; i < waves; ++i) dc.push_back(double(marks_[i + 1].cycle - marks_[i].cycle));
  double mean = 0, var = 0;
  for (double x : dc) mean += x;
  mean /= double(k);
  for (double x : dc) var += (x - mean) * (x - mean);
  var = k > 1 ? var / double(k - 1) : 0;
  const double n = double(grid_ - dispatched) / double(wave_);
  p.end_cycle = end_cycle + uint64_t(std::llround(n * mean));
  p.bound = uint64_t(std::llround(t95(k - 1) * std::sqrt(var) * std::sqrt(n + n * n / double(k))));
  return p;
}

}  // namespace accelsim::sim
