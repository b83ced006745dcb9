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

// cvt.rni / .rzi / .rmi / .rpi on a float destination: round to an integer
// in the destination's type.
template <class F>
F round_to_integer(F x, uint32_t mods) {
  if (mods & kMRni) x = std::nearbyint(x);
  if (mods & kMRzi) x = std::trunc(x);
  if (mods & kMRmi) x = std::floor(x);
  if (mods & kMRpi) x = std::ceil(x);
  return x;
}

// The source as F, rounded once by the FPU's mode (an integer up to 64 bits
// or an f64 into f32; f32 into f64 is exact).
template <class F>
F float_source(uint64_t v, Ty from, bool ftz) {
  if (!ty_float(from)) return ty_signed(from) ? F(signed_of(v, from)) : F(unsigned_of(v, from));
  if (from == kF32) return F(ftz ? flush(as<float>(v)) : as<float>(v));
  return F(as<double>(v));
}

// One lane of each kind of conversion (the kind is picked once per
// instruction): the result's bits, before a signed destination's sign
// extension. False where there is no such conversion.
struct HalfConvert {  // an f16 / bf16 side: exact, rounded once (ptx/half_ops.cpp)
  static bool lane(uint64_t v, const Inst& in, uint64_t& r) {
    if (half::is_half(in.type2) && !ty_float(in.type)) {
      r = float_to_int(half::operand(in.type2, v), in.type, in.mods);
      return true;
    }
    return half::convert(in.type, in.type2, in.mods, v, r);
  }
};
struct IntToInt {
  static bool lane(uint64_t v, const Inst& in, uint64_t& r) {
    r = int_to_int(v, in.type2, in.type, in.mods & kMSat);
    return true;
  }
};
struct FloatToInt {
  static bool lane(uint64_t v, const Inst& in, uint64_t& r) {
    r = in.type2 == kF32 ? float_to_int(float_source<float>(v, kF32, in.mods & kMFtz), in.type, in.mods)
                         : float_to_int(as<double>(v), in.type, in.mods);
    return true;
  }
};
// cvt.rna.tf32.f32 as ptxas 13 lowers it for sm_80 (FSETP, then an integer
// add): a finite value's bits plus 0x1000, which rounds the 10-bit mantissa
// to nearest, ties away from zero; the low 13 bits stay as the add leaves
// them (the tensor unit ignores them); inf and NaN pass unchanged.
struct ToTf32 {
  static bool lane(uint64_t v, const Inst&, uint64_t& r) {
    const uint32_t x = uint32_t(v);
    r = (x & 0x7f800000u) == 0x7f800000u ? x : uint32_t(x + 0x1000u);
    return true;
  }
};
template <class F>
struct ToFloat {  // from an integer, f32 or f64
  static bool lane(uint64_t v, const Inst& in, uint64_t& r) {
    const bool ftz = in.mods & kMFtz;
    F f = round_to_integer(float_source<F>(v, in.type2, ftz), in.mods);
    if constexpr (sizeof(F) == 4) f = ftz ? flush(f) : f;
    if (in.mods & kMSat) f = saturate(f);
    r = bits<F>(f);
    return true;
  }
};

}  // namespace

// The lane loop of one kind of conversion, with the lane inlined; under the
// instruction's FPU rounding mode (.rz/.rm/.rp into a narrower type).
template <class Kind>
void CtaEmulator::convert_lanes(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const bool sign_extend = ty_signed(in.type) && !ty_float(in.type);
  Rounding round(in.mods & (kMRz | kMRm | kMRp));
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t l = uint32_t(__builtin_ctz(m));
    uint64_t r = 0;
    if (!Kind::lane(value(wp, w, in.ops[1], l), in, r))
      fault(w, l, in, "no half-precision semantics for this conversion");
    reg(wp, in.ops[0].reg, l) = sign_extend ? uint64_t(signed_of(r, in.type)) : r;
  }
}

void CtaEmulator::convert(uint32_t w, const Inst& in, uint32_t mask) {
  const Ty to = in.type, from = in.type2;
  if (to == kTF32) return convert_lanes<ToTf32>(w, in, mask);
  if (half::is_half(to) || half::is_half(from)) return convert_lanes<HalfConvert>(w, in, mask);
  if (!ty_float(to) && ty_float(from)) return convert_lanes<FloatToInt>(w, in, mask);
  if (!ty_float(to)) return convert_lanes<IntToInt>(w, in, mask);
  if (to == kF32) return convert_lanes<ToFloat<float>>(w, in, mask);
  return convert_lanes<ToFloat<double>>(w, in, mask);
}

}  // namespace accelsim::ptx
