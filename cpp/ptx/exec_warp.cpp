// Warp-level instructions: activemask, vote, shfl (the lanes exchange
// values, so each runs the whole warp at once).
#include "ptx/emulator.h"

namespace accelsim::ptx {

void CtaEmulator::activemask(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  for (uint32_t m = mask; m; m &= m - 1) reg(wp, in.ops[0].reg, uint32_t(__builtin_ctz(m))) = mask;
}

void CtaEmulator::vote(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  uint32_t ballot = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    uint32_t l = uint32_t(__builtin_ctz(m));
    if (value(wp, w, in.ops[1], l)) ballot |= 1u << l;
  }
  for (uint32_t m = mask; m; m &= m - 1) {
    uint32_t l = uint32_t(__builtin_ctz(m));
    uint64_t r = in.sub == kVoBallot ? ballot
                 : in.sub == kVoAll  ? uint64_t(ballot == mask)
                 : in.sub == kVoAny  ? uint64_t(ballot != 0)
                                     : uint64_t(ballot == 0 || ballot == mask);
    reg(wp, in.ops[0].reg, l) = r;
  }
}

// shfl.sync.mode.b32 d[|p], a, b, c, membermask
void CtaEmulator::shfl(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  uint64_t src[32];
  for (uint32_t l = 0; l < 32; ++l) src[l] = value(wp, w, in.ops[1], l);
  for (uint32_t m = mask; m; m &= m - 1) {
    uint32_t l = uint32_t(__builtin_ctz(m));
    uint32_t b = uint32_t(value(wp, w, in.ops[2], l)) & 31, c = uint32_t(value(wp, w, in.ops[3], l));
    uint32_t cval = c & 31, seg = (c >> 8) & 31;
    uint32_t max_lane = (l & seg) | (cval & ~seg), min_lane = l & seg;
    int32_t j = int32_t(l);
    bool ok;
    switch (in.sub) {
      case kShUp: j = int32_t(l) - int32_t(b); ok = j >= int32_t(max_lane); break;
      case kShDown: j = int32_t(l) + int32_t(b); ok = j <= int32_t(max_lane); break;
      case kShBfly: j = int32_t(l ^ b); ok = j <= int32_t(max_lane); break;
      default: j = int32_t(min_lane | (b & ~seg)); ok = j <= int32_t(max_lane); break;
    }
    if (!ok) j = int32_t(l);
    reg(wp, in.ops[0].reg, l) = src[j] & 0xffffffffu;
    if (in.ops[0].reg2 >= 0) reg(wp, in.ops[0].reg2, l) = ok;
  }
}

}  // namespace accelsim::ptx
