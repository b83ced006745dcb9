// cvt: conversions between integer, float and half types, with rounding
// modes, .sat and .ftz as PTX defines them.
#include <climits>
#include <cmath>

#include "ptx/emulator.h"
#include "ptx/half_ops.h"
#include "ptx/lane.h"

namespace accelsim::ptx {

namespace {

// Float to integer as cvt does it: round by the mode, clamp to the range,
// NaN -> 0.
template <class F>
uint64_t float_to_int(F x, Ty to, uint32_t mods) {
  if (std::isnan(x)) return 0;
  F r = mods & kMRmi ? std::floor(x) : mods & kMRpi ? std::ceil(x) : mods & kMRni ? std::nearbyint(x) : std::trunc(x);
  auto clamp = [&](long double lo, long double hi) -> long double {
    long double v = r;
    return v < lo ? lo : v > hi ? hi : v;
  };
  switch (to) {
    case kS8: return uint64_t(int64_t(clamp(-128, 127)));
    case kU8: return uint64_t(clamp(0, 255));
    case kS16: return uint64_t(int64_t(clamp(-32768, 32767)));
    case kU16: return uint64_t(clamp(0, 65535));
    case kS32: return bits<int32_t>(int32_t(clamp(INT32_MIN, INT32_MAX)));
    case kU32: return uint64_t(clamp(0, 4294967295.0L));
    case kS64: {
      if (r >= F(9223372036854775807.0)) return uint64_t(INT64_MAX);
      if (r <= F(-9223372036854775807.0 - 1)) return uint64_t(INT64_MIN);
      return uint64_t(int64_t(r));
    }
    default: {
      if (r <= 0) return 0;
      if (r >= F(18446744073709551615.0)) return UINT64_MAX;
      return uint64_t(r);
    }
  }
}

int64_t signed_of(uint64_t v, Ty t) {
  switch (ty_bytes(t)) {
    case 1: return int8_t(v);
    case 2: return int16_t(v);
    case 4: return int32_t(v);
    default: return int64_t(v);
  }
}
uint64_t unsigned_of(uint64_t v, Ty t) {
  int b = ty_bytes(t);
  return b >= 8 ? v : v & ((uint64_t(1) << (8 * b)) - 1);
}

// Integer to integer with optional .sat to the destination's range.
uint64_t int_to_int(uint64_t v, Ty from, Ty to, bool sat) {
  int db = ty_bytes(to);
  if (!sat) {
    if (ty_signed(from) && ty_bytes(from) < db) return unsigned_of(uint64_t(signed_of(v, from)), to);
    return unsigned_of(unsigned_of(v, from), to);
  }
  __int128 x = ty_signed(from) ? __int128(signed_of(v, from)) : __int128(unsigned_of(v, from));
  __int128 lo = ty_signed(to) ? -(__int128(1) << (8 * db - 1)) : 0;
  __int128 hi = ty_signed(to) ? (__int128(1) << (8 * db - 1)) - 1 : (__int128(1) << (8 * db)) - 1;
  x = x < lo ? lo : x > hi ? hi : x;
  return unsigned_of(uint64_t(x), to);
}

}  // namespace

void CtaEmulator::convert(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const Ty to = in.type, from = in.type2;
  const bool sat = in.mods & kMSat, ftz = in.mods & kMFtz;
  Rounding round(in.mods & (kMRz | kMRm | kMRp));
  for (uint32_t m = mask; m; m &= m - 1) {
    uint32_t l = uint32_t(__builtin_ctz(m));
    uint64_t v = value(wp, w, in.ops[1], l), r = 0;
    if (half::is_half(to) || half::is_half(from)) {  // exact, rounded once: ptx/half_ops.cpp
      if (half::is_half(from) && !ty_float(to))
        r = float_to_int(half::operand(from, v), to, in.mods);
      else if (!half::convert(to, from, in.mods, v, r))
        fault(w, l, in, "no half-precision semantics for this conversion");
    } else if (!ty_float(from) && !ty_float(to)) {
      r = int_to_int(v, from, to, sat);
    } else if (ty_float(from) && !ty_float(to)) {
      r = from == kF32 ? float_to_int(ftz ? flush(as<float>(v)) : as<float>(v), to, in.mods)
                       : float_to_int(as<double>(v), to, in.mods);
    } else {
      // to float: source as a long double exactly (ints up to 64 bits fit), then round once
      double d;
      bool exact_int = !ty_float(from);
      if (from == kF32) d = ftz ? flush(as<float>(v)) : as<float>(v);
      else if (from == kF64) d = as<double>(v);
      else d = 0;
      if (to == kF32) {
        float f;
        if (exact_int) f = ty_signed(from) ? float(signed_of(v, from)) : float(unsigned_of(v, from));
        else if (from == kF64) f = float(d);
        else f = float(d);
        if (in.mods & kMRni) f = std::nearbyint(f);
        if (in.mods & kMRzi) f = std::trunc(f);
        if (in.mods & kMRmi) f = std::floor(f);
        if (in.mods & kMRpi) f = std::ceil(f);
        if (ftz) f = flush(f);
        if (sat) f = std::isnan(f) ? 0.0f : f < 0 ? 0.0f : f > 1 ? 1.0f : f;
        r = bits<float>(f);
      } else {
        double g = exact_int ? (ty_signed(from) ? double(signed_of(v, from)) : double(unsigned_of(v, from))) : d;
        if (in.mods & kMRni) g = std::nearbyint(g);
        if (in.mods & kMRzi) g = std::trunc(g);
        if (in.mods & kMRmi) g = std::floor(g);
        if (in.mods & kMRpi) g = std::ceil(g);
        if (sat) g = std::isnan(g) ? 0.0 : g < 0 ? 0.0 : g > 1 ? 1.0 : g;
        r = bits<double>(g);
      }
    }
    if (ty_signed(to) && !ty_float(to)) r = uint64_t(signed_of(r, to));
    reg(wp, in.ops[0].reg, l) = r;
  }
}

}  // namespace accelsim::ptx
