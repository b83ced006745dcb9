// mov (including packing into and unpacking from vectors) and cvta.
#include "ptx/emulator.h"

namespace accelsim::ptx {

void CtaEmulator::move(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const Operand& d = in.ops[0];
  const Operand& s = in.ops[1];
  for (uint32_t m = mask; m; m &= m - 1) {
    uint32_t l = uint32_t(__builtin_ctz(m));
    if (s.kind == Operand::kVec) {  // pack
      int eb = 8 * ty_bytes(in.type) / s.nvec;
      uint64_t v = 0;
      for (int e = 0; e < s.nvec; ++e)
        v |= (s.vec[e] >= 0 ? reg(wp, s.vec[e], l) & (eb == 64 ? ~0ull : ((1ull << eb) - 1)) : 0) << (e * eb);
      reg(wp, d.reg, l) = v;
    } else if (d.kind == Operand::kVec) {  // unpack
      int eb = 8 * ty_bytes(in.type) / d.nvec;
      uint64_t v = value(wp, w, s, l);
      for (int e = 0; e < d.nvec; ++e)
        if (d.vec[e] >= 0) reg(wp, d.vec[e], l) = eb >= 64 ? v : (v >> (e * eb)) & ((1ull << eb) - 1);
    } else {
      uint64_t v = value(wp, w, s, l);
      int b = ty_bytes(in.type);
      reg(wp, d.reg, l) = b >= 8 || in.type == kPred ? v : v & ((1ull << (8 * b)) - 1);
    }
  }
}

// cvta[.to].space: between a state space's address and its generic window.
void CtaEmulator::cvta(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  for (uint32_t m = mask; m; m &= m - 1) {
    uint32_t l = uint32_t(__builtin_ctz(m));
    uint64_t a = value(wp, w, in.ops[1], l);
    uint64_t base = in.space == kSpShared ? L.shmem_base : in.space == kSpLocal ? L.local_base : 0;
    reg(wp, in.ops[0].reg, l) = in.mods & kMTo ? a - base : a + base;
  }
}

}  // namespace accelsim::ptx
