// setp: comparisons (ordered and unordered), combined with a predicate
// by .and / .or / .xor.
#include <cmath>
#include <type_traits>

#include "ptx/emulator.h"
#include "ptx/half_ops.h"
#include "ptx/lane.h"

namespace accelsim::ptx {

namespace {

// a <op> b for the ordered comparisons (the unsigned spellings lo/ls/hi/hs
// compare the same way: T is already the operand type).
template <class T>
bool ordered(T a, T b, Cmp c) {
  switch (c) {
    case kEq: return a == b;
    case kNe: return a != b;
    case kLt: case kLo: return a < b;
    case kLe: case kLs: return a <= b;
    case kGt: case kHi: return a > b;
    case kGe: case kHs: return a >= b;
    default: return false;
  }
}

static_assert(kNeu - kEqu == kNe && kLtu - kEqu == kLt && kLeu - kEqu == kLe && kGtu - kEqu == kGt &&
              kGeu - kEqu == kGe && kEq == 0);

// setp's comparison: ordered ones are false on a NaN, the unordered ones
// (equ .. geu, each its ordered one + kEqu) true; num / nan test for NaN.
template <class T>
bool cmp_values(T a, T b, Cmp c) {
  bool unord = false;
  if constexpr (std::is_floating_point_v<T>) unord = std::isnan(a) || std::isnan(b);
  if (c == kNum) return !unord;
  if (c == kNan) return unord;
  if (c >= kEqu && c <= kGeu) return unord || ordered(a, b, Cmp(c - kEqu));
  return !unord && ordered(a, b, c);
}

// How setp reads its two operands at each type: the raw bits as T, f32 with
// .ftz flushed, f16 / bf16 as their value (a subnormal f16 compares as zero
// under .ftz).
template <class T>
struct Bits {
  static T get(uint64_t v, const Inst&, bool) { return as<T>(v); }
};
struct F32 {
  static float get(uint64_t v, const Inst&, bool ftz) { return ftz ? flush(as<float>(v)) : as<float>(v); }
};
struct Half {
  static double get(uint64_t v, const Inst& in, bool ftz) {
    const double x = half::operand(in.type, v);
    return ftz && in.type == kF16 && std::fabs(x) < 0x1p-14 ? std::copysign(0.0, x) : x;
  }
};

// setp's .and / .or / .xor with predicate c (none: t as is).
bool combine(bool t, bool c, SubOp sub) {
  if (sub == kBoolAnd) return t && c;
  if (sub == kBoolOr) return t || c;
  if (sub == kBoolXor) return t != c;
  return t;
}

}  // namespace

// One warp instruction's lanes at one operand type (Get), picked once.
template <class Get>
void CtaEmulator::compare_lanes(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const bool ftz = in.mods & kMFtz, with_c = in.ops.size() > 3;
  const int32_t d = in.ops[0].reg, d2 = in.ops[0].reg2;
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t l = uint32_t(__builtin_ctz(m));
    const uint64_t a = value(wp, w, in.ops[1], l), b = value(wp, w, in.ops[2], l);
    const bool t = cmp_values(Get::get(a, in, ftz), Get::get(b, in, ftz), in.cmp);
    const bool c = with_c ? value(wp, w, in.ops[3], l) != 0 : true;
    reg(wp, d, l) = with_c ? combine(t, c, in.sub) : t;
    if (d2 >= 0) reg(wp, d2, l) = combine(!t, c, in.sub);  // setp d|p: p is the complement, combined alike
  }
}

void CtaEmulator::compare(uint32_t w, const Inst& in, uint32_t mask) {
  switch (in.type) {
    case kF32: return compare_lanes<F32>(w, in, mask);
    case kF64: return compare_lanes<Bits<double>>(w, in, mask);
    case kF16: case kBF16: return compare_lanes<Half>(w, in, mask);
    case kS16: return compare_lanes<Bits<int16_t>>(w, in, mask);
    case kS32: return compare_lanes<Bits<int32_t>>(w, in, mask);
    case kS64: return compare_lanes<Bits<int64_t>>(w, in, mask);
    case kU16: case kB16: return compare_lanes<Bits<uint16_t>>(w, in, mask);
    case kU64: case kB64: return compare_lanes<Bits<uint64_t>>(w, in, mask);
    default: return compare_lanes<Bits<uint32_t>>(w, in, mask);
  }
}

}  // namespace accelsim::ptx
