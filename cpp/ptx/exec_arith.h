// CtaEmulator::arith<Sem>: runs an arithmetic opcode's per-lane semantics
// (ptx/ops_*.h) over a warp's active lanes. The type switch happens once
// per warp instruction, so each lane loop is one opcode at one type, with
// the semantics inlined. Float results follow IEEE-754 as PTX defines them
// for .rn and the directed rounding modes (the FPU's rounding mode is set
// around the loop). Included only by ptx/exec_dispatch.cpp, which
// instantiates it per opcode.
#pragma once
#include <algorithm>

#include "ptx/emulator.h"
#include "ptx/half_ops.h"
#include "ptx/lane.h"

namespace accelsim::ptx {

template <class Sem>
void CtaEmulator::arith(uint32_t w, const Inst& in, uint32_t mask) {
  switch (in.type) {
    case kF16: case kBF16: case kF16x2: return half_lanes(w, in, mask);  // ptx/half_ops.cpp
    case kF32: return float_lanes<Sem, float>(w, in, mask);
    case kF64: return float_lanes<Sem, double>(w, in, mask);
    case kS16: return int_lanes<Sem, int16_t>(w, in, mask);
    case kU16: case kB16: return int_lanes<Sem, uint16_t>(w, in, mask);
    case kS32: return int_lanes<Sem, int32_t>(w, in, mask);
    case kU32: case kB32: case kTyNone: return int_lanes<Sem, uint32_t>(w, in, mask);
    case kS64: return int_lanes<Sem, int64_t>(w, in, mask);
    case kU64: case kB64: return int_lanes<Sem, uint64_t>(w, in, mask);
    case kPred: return pred_lanes<Sem>(w, in, mask);
    default: fault(w, uint32_t(__builtin_ctz(mask | 1)), in, "unsupported type");
  }
}

// Operands 1.. of lane l as raw bits (at most 4 sources; absent ones 0). A
// plain register, the common case, is read inline.
inline void CtaEmulator::sources(Warp& wp, uint32_t w, const Inst& in, uint32_t l, uint64_t* v) {
  const Operand* o = in.ops.data();
  const size_t n = in.ops.size();
  auto read = [&](size_t k) -> uint64_t {
    if (k >= n) return 0;
    return o[k].kind == Operand::kReg && !o[k].neg ? reg(wp, o[k].reg, l) : value(wp, w, o[k], l);
  };
  v[1] = read(1), v[2] = read(2), v[3] = read(3), v[4] = read(4);
}

template <class Sem, class T>
void CtaEmulator::int_lanes(uint32_t w, const Inst& in, uint32_t mask) {
  if constexpr (requires(Lane<T>& x) { Sem::template integer<T>(x); }) {
    Warp& wp = warps_[w];
    const int32_t d = in.ops[0].reg;
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint32_t l = uint32_t(__builtin_ctz(m));
      uint64_t v[kMaxSources + 1];
      sources(wp, w, in, l, v);
      Lane<T> x{as<T>(v[1]), as<T>(v[2]), v, in, wp.carry[l], false};
      reg(wp, d, l) = Sem::template integer<T>(x);
    }
  } else if (mask) {
    fault(w, uint32_t(__builtin_ctz(mask)), in, "no integer semantics for this instruction");
  }
}

template <class Sem, class F>
void CtaEmulator::float_lanes(uint32_t w, const Inst& in, uint32_t mask) {
  constexpr bool kValue = requires(Lane<F>& x) { Sem::template floating<F>(x); };
  constexpr bool kRaw = requires(Lane<F>& x) { Sem::template floating_raw<F>(x); };
  if constexpr (kValue || kRaw) {
    Warp& wp = warps_[w];
    const int32_t d = in.ops[0].reg;
    const bool ftz = (in.mods & kMFtz) && sizeof(F) == 4;
    const bool sat = in.mods & kMSat;
    Rounding round(in.mods);
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint32_t l = uint32_t(__builtin_ctz(m));
      uint64_t v[kMaxSources + 1];
      sources(wp, w, in, l, v);
      Lane<F> x{as<F>(v[1]), as<F>(v[2]), v, in, wp.carry[l], ftz};
      if (ftz) x.a = flush(x.a), x.b = flush(x.b);
      if constexpr (kRaw) {
        reg(wp, d, l) = Sem::template floating_raw<F>(x);
      } else {
        F r = Sem::template floating<F>(x);
        if (ftz) r = flush(r);
        if (sat) r = saturate(r);
        reg(wp, d, l) = bits<F>(r);
      }
    }
  } else if (mask) {
    fault(w, uint32_t(__builtin_ctz(mask)), in, "no floating-point semantics for this instruction");
  }
}

template <class Sem>
void CtaEmulator::pred_lanes(uint32_t w, const Inst& in, uint32_t mask) {
  if constexpr (requires { Sem::predicate(true, true, uint64_t(0)); }) {
    Warp& wp = warps_[w];
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint32_t l = uint32_t(__builtin_ctz(m));
      uint64_t v[kMaxSources + 1];
      sources(wp, w, in, l, v);
      reg(wp, in.ops[0].reg, l) = Sem::predicate(v[1] != 0, v[2] != 0, v[3]);
    }
  } else if (mask) {
    fault(w, uint32_t(__builtin_ctz(mask)), in, "no predicate semantics for this instruction");
  }
}

}  // namespace accelsim::ptx
