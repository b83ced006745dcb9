// SASS-guided records of loops ptxas unrolled again (docs/ptx.md, "Basic
// blocks"): the emulator runs the PTX loop once per PTX iteration, ptxas's
// SASS runs a main loop of k body copies floor(n/k) times and guards, a
// chunk and a remainder loop for the rest. Each PTX iteration records one
// body copy (its templates); the control of the main loop follows every
// k-th iteration, and the control the rest of the path runs for n
// iterations follows the last, so a warp records what the SASS executes.
#include "ptx/emulator.h"

namespace accelsim::ptx {

// An entry is a run of consecutive executions of the loop block by the warp
// (as the block check counts them): it ends when the warp records anything
// outside the block or finishes.
void CtaEmulator::loop_before(uint32_t w, int32_t pc, uint32_t mask) {
  Warp& wp = warps_[w];
  const int16_t l = P.loop_of[size_t(pc)];
  if (wp.loop >= 0 && l != wp.loop) leave_loop(w);
  if (l < 0 || pc != P.loops[size_t(l)].first_pc) return;
  if (wp.loop == l) {
    ++wp.loop_trips;
    return;
  }
  wp.loop = l;
  wp.loop_trips = 1;
  wp.loop_mask = mask;
}

void CtaEmulator::loop_after(uint32_t w, int32_t pc, uint32_t mask) {
  Warp& wp = warps_[w];
  if (wp.loop < 0) return;
  const Program::UnrolledLoop& u = P.loops[size_t(wp.loop)];
  if (pc == u.last_pc && wp.loop_trips % u.k == 0) control_records(w, u.every_k_begin, u.every_k_end, mask);
}

void CtaEmulator::leave_loop(uint32_t w) {
  Warp& wp = warps_[w];
  const Program::UnrolledLoop& u = P.loops[size_t(wp.loop)];
  const uint64_t n = wp.loop_trips, k = u.k;
  const size_t at = size_t(n < 2 * k ? n : k + (n - k) % k);  // past 2k the guards' path repeats every k
  wp.loop = -1;
  control_records(w, u.exit_begin[at], u.exit_begin[at + 1], wp.loop_mask);
}

void CtaEmulator::control_records(uint32_t w, uint32_t begin, uint32_t end, uint32_t mask) {
  Warp& wp = warps_[w];
  for (uint32_t k = begin; k < end; ++k) {
    isa::InstRecord r = P.tmpl[k];  // its line is set: the PTX line the SASS names
    r.pc = k * 16;
    r.active_mask = (r.flags & isa::kFlagPredOff) ? 0 : mask;
    r.warp = uint8_t(w);
    if (mask == 0) r.flags |= isa::kFlagPredOff;
    wp.recs.push_back(r);
  }
}

}  // namespace accelsim::ptx
