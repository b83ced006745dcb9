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
}  // namespace

void CtaEmulator::compare(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const bool ftz = in.mods & kMFtz;
  for (uint32_t m = mask; m; m &= m - 1) {
    uint32_t l = uint32_t(__builtin_ctz(m));
    uint64_t a = value(wp, w, in.ops[1], l), b = value(wp, w, in.ops[2], l);
    bool t;
    switch (in.type) {
      case kF32: {
        float x = as<float>(a), y = as<float>(b);
        if (ftz) x = flush(x), y = flush(y);
        t = cmp_values(x, y, in.cmp);
        break;
      }
      case kF64: t = cmp_values(as<double>(a), as<double>(b), in.cmp); break;
      case kF16: case kBF16: {
        double x = half::operand(in.type, a), y = half::operand(in.type, b);
        if (ftz && in.type == kF16) {  // subnormal halves compare as zero
          if (std::fabs(x) < 0x1p-14) x = std::copysign(0.0, x);
          if (std::fabs(y) < 0x1p-14) y = std::copysign(0.0, y);
        }
        t = cmp_values(x, y, in.cmp);
        break;
      }
      case kS16: t = cmp_values(as<int16_t>(a), as<int16_t>(b), in.cmp); break;
      case kS32: t = cmp_values(as<int32_t>(a), as<int32_t>(b), in.cmp); break;
      case kS64: t = cmp_values(as<int64_t>(a), as<int64_t>(b), in.cmp); break;
      case kU16: case kB16: t = cmp_values(as<uint16_t>(a), as<uint16_t>(b), in.cmp); break;
      case kU64: case kB64: t = cmp_values(a, b, in.cmp); break;
      default: t = cmp_values(as<uint32_t>(a), as<uint32_t>(b), in.cmp); break;
    }
    bool c = true, cmp_raw = t;
    if (in.ops.size() > 3) {
      c = value(wp, w, in.ops[3], l) != 0;
      if (in.sub == kBoolAnd) t = t && c;
      if (in.sub == kBoolOr) t = t || c;
      if (in.sub == kBoolXor) t = t != c;
    }
    reg(wp, in.ops[0].reg, l) = t;
    if (in.ops[0].reg2 >= 0) {  // setp d|p: p is the complement, combined the same way
      bool f = !cmp_raw;
      if (in.sub == kBoolAnd) f = f && c;
      if (in.sub == kBoolOr) f = f || c;
      if (in.sub == kBoolXor) f = f != c;
      reg(wp, in.ops[0].reg2, l) = f;
    }
  }
}

}  // namespace accelsim::ptx
