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

// Operands 1.. of lane l as raw bits (at most 4 sources; absent ones 0).
inline void CtaEmulator::sources(Warp& wp, uint32_t w, const Inst& in, uint32_t l, uint64_t* v) {
  const Operand* o = in.ops.data();
  const size_t n = in.ops.size();
  auto read = [&](size_t k) -> uint64_t { return k < n ? value(wp, w, o[k], l) : 0; };
  v[1] = read(1), v[2] = read(2), v[3] = read(3), v[4] = read(4);
}

// Where each source of the instruction is a plain register, an immediate,
// a variable's address or absent (0), lane l of source k is
// rows.at[k][l & rows.lane[k]] (lane mask 31 for a register's row, 0 for
// one value): the lane loops read them without looking at the operands
// again. Otherwise (a special register, !p, ...) rows.direct is false and
// the loops ask sources().
struct CtaEmulator::SourceRows {
  const uint64_t* at[kMaxSources + 1];
  uint32_t lane[kMaxSources + 1];
  bool direct = true;
};

inline void CtaEmulator::source_rows(Warp& wp, const Inst& in, SourceRows& rows) {
  static constexpr uint64_t kZero = 0;
  for (size_t k = 1; k <= kMaxSources; ++k) {
    const Operand* o = k < in.ops.size() ? &in.ops[k] : nullptr;
    rows.lane[k] = o && o->kind == Operand::kReg ? 31 : 0;
    if (!o) rows.at[k] = &kZero;
    else if (o->kind == Operand::kReg && !o->neg) rows.at[k] = &wp.regs[size_t(o->reg) * 32];
    else if (o->kind == Operand::kImm) rows.at[k] = reinterpret_cast<const uint64_t*>(&o->imm);
    else if (o->kind == Operand::kSym) rows.at[k] = &sym_addr_[size_t(o->sym)];
    else rows.direct = false;
  }
}

inline void CtaEmulator::lane_sources(Warp& wp, uint32_t w, const Inst& in, const SourceRows& rows, uint32_t l,
                                      uint64_t* v) {
  if (!rows.direct) return sources(wp, w, in, l, v);
  for (size_t k = 1; k <= kMaxSources; ++k) v[k] = rows.at[k][l & rows.lane[k]];
}

template <class Sem, class T>
void CtaEmulator::int_lanes(uint32_t w, const Inst& in, uint32_t mask) {
  if constexpr (requires(Lane<T>& x) { Sem::template integer<T>(x); }) {
    Warp& wp = warps_[w];
    SourceRows rows;
    source_rows(wp, in, rows);
    const int32_t d = in.ops[0].reg;
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint32_t l = uint32_t(__builtin_ctz(m));
      uint64_t v[kMaxSources + 1];
      lane_sources(wp, w, in, rows, l, v);
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
    SourceRows rows;
    source_rows(wp, in, rows);
    const int32_t d = in.ops[0].reg;
    const bool ftz = (in.mods & kMFtz) && sizeof(F) == 4;
    const bool sat = in.mods & kMSat;
    Rounding round(in.mods);
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint32_t l = uint32_t(__builtin_ctz(m));
      uint64_t v[kMaxSources + 1];
      lane_sources(wp, w, in, rows, l, v);
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
    SourceRows rows;
    source_rows(wp, in, rows);
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint32_t l = uint32_t(__builtin_ctz(m));
      uint64_t v[kMaxSources + 1];
      lane_sources(wp, w, in, rows, l, v);
      reg(wp, in.ops[0].reg, l) = Sem::predicate(v[1] != 0, v[2] != 0, v[3]);
    }
  } else if (mask) {
    fault(w, uint32_t(__builtin_ctz(mask)), in, "no predicate semantics for this instruction");
  }
}

}  // namespace accelsim::ptx
