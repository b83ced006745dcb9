// Arithmetic, conversion, comparison and warp-level instructions. Each runs
// its active lanes in one loop; the type switch happens once per warp
// instruction. Float results follow IEEE-754 as PTX defines them for .rn and
// the directed rounding modes (the FPU's rounding mode is set around the
// loop); .approx functions use the host's libm (docs/ptx.md gives the bound).
#include <cfenv>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ptx/emulator.h"
#include "ptx/half_ops.h"
#include "ptx/ptx_error.h"

namespace accelsim::ptx {

namespace {

template <class T>
T as(uint64_t v) {
  T t;
  std::memcpy(&t, &v, sizeof(T));
  return t;
}
template <class T>
uint64_t bits(T t) {
  uint64_t v = 0;
  std::memcpy(&v, &t, sizeof(T));
  return v;
}

template <class F>
F flush(F x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(F(0), x) : x;
}

// Sets the FPU rounding mode for one instruction's lanes.
class Rounding {
 public:
  explicit Rounding(uint32_t mods) : old_(std::fegetround()) {
    int mode = FE_TONEAREST;
    if (mods & kMRz) mode = FE_TOWARDZERO;
    if (mods & kMRm) mode = FE_DOWNWARD;
    if (mods & kMRp) mode = FE_UPWARD;
    if (mode != old_) std::fesetround(mode);
  }
  ~Rounding() { std::fesetround(old_); }

 private:
  int old_;
};

template <class T>
T saturate_add(T a, T b, bool sub) {
  using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
  W r = sub ? W(a) - W(b) : W(a) + W(b);
  if (r > W(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  if (r < W(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  return T(r);
}

template <class T>
T mul_hi(T a, T b) {
  if constexpr (sizeof(T) == 8) {
    using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
    return T((W(a) * W(b)) >> 64);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    return T((W(a) * W(b)) >> (8 * sizeof(T)));
  }
}

template <class T>
uint64_t wide(T a, T b) {
  using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
  if constexpr (sizeof(T) == 2) return bits(std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>(W(a) * W(b)));
  return uint64_t(W(a) * W(b));
}

}  // namespace

template <class T>
void CtaEmulator::int_op(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  constexpr int kBits = 8 * sizeof(T);
  using U = std::make_unsigned_t<T>;
  const auto& o = in.ops;
  for (uint32_t m = mask; m; m &= m - 1) {
    uint32_t l = uint32_t(__builtin_ctz(m));
    T a = o.size() > 1 ? as<T>(value(wp, w, o[1], l)) : T(0);
    T b = o.size() > 2 ? as<T>(value(wp, w, o[2], l)) : T(0);
    uint64_t r = 0;
    if (in.op == Op::kAddc || in.op == Op::kSubc || in.op == Op::kMadc ||
        ((in.op == Op::kAdd || in.op == Op::kSub || in.op == Op::kMad) && (in.mods & kMCc))) {
      // extended-precision chains: carry (borrow for sub) in and out per lane
      U x = U(a), y = U(b), cin = (in.op == Op::kAddc || in.op == Op::kSubc || in.op == Op::kMadc) ? wp.carry[l] : 0;
      U res;
      bool cout;
      if (in.op == Op::kSub || in.op == Op::kSubc) {
        res = U(x - y - cin);
        cout = x < y || (cin && x == y);
      } else {
        if (in.op == Op::kMad || in.op == Op::kMadc) {
          U c = as<U>(value(wp, w, o[3], l));
          x = in.mods & kMHi ? U(mul_hi(x, y)) : U(x * y);
          y = c;
        }
        res = U(x + y + cin);
        cout = res < x || (cin && res == x);
      }
      if (in.mods & kMCc) wp.carry[l] = cout;
      reg(wp, o[0].reg, l) = bits<U>(res);
      continue;
    }
    switch (in.op) {
      case Op::kAdd: r = bits<T>(in.mods & kMSat ? saturate_add(a, b, false) : T(U(a) + U(b))); break;
      case Op::kSub: r = bits<T>(in.mods & kMSat ? saturate_add(a, b, true) : T(U(a) - U(b))); break;
      case Op::kMul:
        r = in.mods & kMWide ? wide(a, b) : in.mods & kMHi ? bits<T>(mul_hi(a, b)) : bits<T>(T(U(a) * U(b)));
        break;
      case Op::kMad: {
        uint64_t c = value(wp, w, o[3], l);
        if (in.mods & kMWide) r = wide(a, b) + c;
        else if (in.mods & kMHi) r = bits<T>(T(U(mul_hi(a, b)) + U(as<T>(c))));
        else r = bits<T>(T(U(a) * U(b) + U(as<T>(c))));
        if ((in.mods & kMWide) && sizeof(T) == 2) r &= 0xffffffffu;
        break;
      }
      case Op::kMul24:
      case Op::kMad24: {
        int64_t x = std::is_signed_v<T> ? int64_t(int32_t(uint32_t(a) << 8) >> 8) : int64_t(uint32_t(a) & 0xffffff);
        int64_t y = std::is_signed_v<T> ? int64_t(int32_t(uint32_t(b) << 8) >> 8) : int64_t(uint32_t(b) & 0xffffff);
        int64_t p = x * y;
        uint32_t v = in.mods & kMHi ? uint32_t(uint64_t(p) >> 16) : uint32_t(p);
        if (in.op == Op::kMad24) v += uint32_t(value(wp, w, o[3], l));
        r = v;
        break;
      }
      case Op::kDiv:
        if (b == 0) r = bits<T>(T(~U(0)));
        else if (std::is_signed_v<T> && b == T(-1)) r = bits<T>(T(U(0) - U(a)));
        else r = bits<T>(T(a / b));
        break;
      case Op::kRem:
        if (b == 0) r = bits<T>(a);
        else if (std::is_signed_v<T> && b == T(-1)) r = 0;
        else r = bits<T>(T(a % b));
        break;
      case Op::kMin: r = bits<T>(a < b ? a : b); break;
      case Op::kMax: r = bits<T>(a > b ? a : b); break;
      case Op::kAnd: r = bits<T>(T(a & b)); break;
      case Op::kOr: r = bits<T>(T(a | b)); break;
      case Op::kXor: r = bits<T>(T(a ^ b)); break;
      case Op::kNot: r = bits<T>(T(~a)); break;
      case Op::kCnot: r = a == 0 ? 1 : 0; break;
      case Op::kNeg: r = bits<T>(T(U(0) - U(a))); break;
      case Op::kAbs: r = bits<T>(a < 0 ? T(U(0) - U(a)) : a); break;
      case Op::kShl: {
        uint32_t s = uint32_t(value(wp, w, o[2], l));
        r = s >= kBits ? 0 : bits<T>(T(U(a) << s));
        break;
      }
      case Op::kShr: {
        uint32_t s = uint32_t(value(wp, w, o[2], l));
        if (std::is_signed_v<T>) r = bits<T>(T(a >> std::min<uint32_t>(s, kBits - 1)));
        else r = s >= kBits ? 0 : bits<T>(T(U(a) >> s));
        break;
      }
      case Op::kPopc: r = uint32_t(__builtin_popcountll(uint64_t(U(a)))); break;
      case Op::kClz: r = U(a) == 0 ? kBits : uint32_t(__builtin_clzll(uint64_t(U(a))) - (64 - kBits)); break;
      case Op::kBrev: {
        U x = U(a), y = 0;
        for (int i = 0; i < kBits; ++i) y = U(y | (((x >> i) & 1) << (kBits - 1 - i)));
        r = bits<U>(y);
        break;
      }
      case Op::kBfe: {
        uint32_t pos = uint32_t(value(wp, w, o[2], l)) & 0xff, len = uint32_t(value(wp, w, o[3], l)) & 0xff;
        U x = U(a), res = 0;
        bool sbit = std::is_signed_v<T> && len > 0 && ((x >> std::min<uint32_t>(pos + len - 1, kBits - 1)) & 1);
        for (uint32_t i = 0; i < uint32_t(kBits); ++i) {
          uint64_t bit = i < len && pos + i < uint32_t(kBits) ? (x >> (pos + i)) & 1 : (i >= len ? sbit : sbit);
          res = U(res | (U(bit) << i));
        }
        r = bits<U>(res);
        break;
      }
      case Op::kBfi: {
        U f = U(a), base = U(b);
        uint32_t pos = uint32_t(value(wp, w, o[3], l)) & 0xff, len = uint32_t(value(wp, w, o[4], l)) & 0xff;
        for (uint32_t i = 0; i < len && pos + i < uint32_t(kBits); ++i)
          base = U((base & ~(U(1) << (pos + i))) | (((f >> i) & 1) << (pos + i)));
        r = bits<U>(base);
        break;
      }
      case Op::kPrmt: {
        uint32_t x = uint32_t(a), y = uint32_t(b), sel = uint32_t(value(wp, w, o[3], l));
        uint64_t bytes = uint64_t(x) | (uint64_t(y) << 32);
        uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
          uint32_t s = (sel >> (4 * k)) & 0xf;
          uint8_t byte = uint8_t(bytes >> (8 * (s & 7)));
          if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
          v |= uint32_t(byte) << (8 * k);
        }
        r = v;
        break;
      }
      case Op::kLop3: {
        U c = as<U>(value(wp, w, o[3], l));
        uint32_t lut = uint32_t(value(wp, w, o[4], l));
        U res = 0;
        for (int i = 0; i < kBits; ++i) {
          uint32_t idx = uint32_t(((U(a) >> i) & 1) << 2 | ((U(b) >> i) & 1) << 1 | ((c >> i) & 1));
          res = U(res | (U((lut >> idx) & 1) << i));
        }
        r = bits<U>(res);
        break;
      }
      case Op::kSelp: r = value(wp, w, o[3], l) ? bits<T>(a) : bits<T>(b); break;
      case Op::kSlct: {
        uint64_t c = value(wp, w, o[3], l);
        bool ge = in.type2 == kF32 ? as<float>(c) >= 0.0f : as<int32_t>(c) >= 0;
        r = ge ? bits<T>(a) : bits<T>(b);
        break;
      }
      default: fault(w, l, in, "no integer semantics for this instruction");
    }
    reg(wp, o[0].reg, l) = r;
  }
}

template <class F>
void CtaEmulator::float_op(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const auto& o = in.ops;
  const bool ftz = (in.mods & kMFtz) && sizeof(F) == 4;
  Rounding round(in.mods);
  for (uint32_t m = mask; m; m &= m - 1) {
    uint32_t l = uint32_t(__builtin_ctz(m));
    F a = o.size() > 1 ? as<F>(value(wp, w, o[1], l)) : F(0);
    F b = o.size() > 2 ? as<F>(value(wp, w, o[2], l)) : F(0);
    if (ftz) a = flush(a), b = flush(b);
    F r = 0;
    switch (in.op) {
      case Op::kAdd: r = a + b; break;
      case Op::kSub: r = a - b; break;
      case Op::kMul: r = a * b; break;
      case Op::kMad:
      case Op::kFma: {
        F c = as<F>(value(wp, w, o[3], l));
        if (ftz) c = flush(c);
        r = std::fma(a, b, c);
        break;
      }
      case Op::kDiv: r = a / b; break;
      case Op::kMin: r = std::isnan(a) ? b : std::isnan(b) ? a : (a < b || (a == b && std::signbit(a))) ? a : b; break;
      case Op::kMax: r = std::isnan(a) ? b : std::isnan(b) ? a : (a > b || (a == b && !std::signbit(a))) ? a : b; break;
      case Op::kNeg: r = -a; break;
      case Op::kAbs: r = std::fabs(a); break;
      case Op::kSqrt: r = std::sqrt(a); break;
      case Op::kRsqrt: r = F(1) / std::sqrt(a); break;
      case Op::kRcp: r = F(1) / a; break;
      case Op::kSin: r = std::sin(a); break;
      case Op::kCos: r = std::cos(a); break;
      case Op::kEx2: r = std::exp2(a); break;
      case Op::kLg2: r = std::log2(a); break;
      case Op::kCopysign: r = std::copysign(b, a); break;
      case Op::kSelp: r = value(wp, w, o[3], l) ? a : b; break;
      case Op::kSlct: {
        uint64_t c = value(wp, w, o[3], l);
        r = (in.type2 == kF32 ? as<float>(c) >= 0.0f : as<int32_t>(c) >= 0) ? a : b;
        break;
      }
      case Op::kTestp: {
        bool t = false;
        const std::string& s = in.spelling;
        if (s.find(".finite") != std::string::npos) t = std::isfinite(a);
        else if (s.find(".infinite") != std::string::npos) t = std::isinf(a);
        else if (s.find(".notanumber") != std::string::npos) t = std::isnan(a);
        else if (s.find(".number") != std::string::npos) t = !std::isnan(a);
        else if (s.find(".subnormal") != std::string::npos) t = std::fpclassify(a) == FP_SUBNORMAL;
        else if (s.find(".normal") != std::string::npos) t = std::isnormal(a);
        reg(wp, o[0].reg, l) = t;
        continue;
      }
      default: fault(w, l, in, "no floating-point semantics for this instruction");
    }
    if (ftz) r = flush(r);
    if ((in.mods & kMSat) && !std::isnan(r)) r = r < 0 ? F(0) : r > 1 ? F(1) : r;
    if ((in.mods & kMSat) && std::isnan(r)) r = 0;
    reg(wp, o[0].reg, l) = bits<F>(r);
  }
}

void CtaEmulator::alu(uint32_t w, const Inst& in, uint32_t mask) {
  Ty t = in.type;
  if (half::is_half(t)) {  // f16 / bf16 / f16x2: ptx/half_ops.cpp
    Warp& wp = warps_[w];
    const auto& o = in.ops;
    for (uint32_t m = mask; m; m &= m - 1) {
      uint32_t l = uint32_t(__builtin_ctz(m));
      uint64_t a = o.size() > 1 ? value(wp, w, o[1], l) : 0, b = o.size() > 2 ? value(wp, w, o[2], l) : 0;
      uint64_t c = o.size() > 3 ? value(wp, w, o[3], l) : 0, r = 0;
      if (!half::arith(in.op, t, in.mods, a, b, c, r)) fault(w, l, in, "no half-precision semantics for this instruction");
      reg(wp, o[0].reg, l) = r;
    }
    return;
  }
  if ((in.op == Op::kMul || in.op == Op::kMad) && (in.mods & kMWide)) t = in.type;  // source type
  switch (t) {
    case kF32: return float_op<float>(w, in, mask);
    case kF64: return float_op<double>(w, in, mask);
    case kS16: return int_op<int16_t>(w, in, mask);
    case kU16: case kB16: return int_op<uint16_t>(w, in, mask);
    case kS32: return int_op<int32_t>(w, in, mask);
    case kU32: case kB32: case kTyNone: return int_op<uint32_t>(w, in, mask);
    case kS64: return int_op<int64_t>(w, in, mask);
    case kU64: case kB64: return int_op<uint64_t>(w, in, mask);
    case kPred: {
      Warp& wp = warps_[w];
      for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = uint32_t(__builtin_ctz(m));
        bool a = value(wp, w, in.ops[1], l) != 0;
        bool b = in.ops.size() > 2 && value(wp, w, in.ops[2], l) != 0;
        bool r = in.op == Op::kAnd ? a && b : in.op == Op::kOr ? a || b : in.op == Op::kXor ? a != b
               : in.op == Op::kNot ? !a : in.op == Op::kSelp ? (value(wp, w, in.ops[3], l) ? a : b) : a;
        reg(wp, in.ops[0].reg, l) = r;
      }
      return;
    }
    default: fault(w, uint32_t(__builtin_ctz(mask | 1)), in, "unsupported type");
  }
}

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

namespace {
template <class T>
bool cmp_values(T a, T b, Cmp c) {
  bool unord = false;
  if constexpr (std::is_floating_point_v<T>) unord = std::isnan(a) || std::isnan(b);
  switch (c) {
    case kEq: return !unord && a == b;
    case kNe: return !unord && a != b;
    case kLt: case kLo: return !unord && a < b;
    case kLe: case kLs: return !unord && a <= b;
    case kGt: case kHi: return !unord && a > b;
    case kGe: case kHs: return !unord && a >= b;
    case kEqu: return unord || a == b;
    case kNeu: return unord || a != b;
    case kLtu: return unord || a < b;
    case kLeu: return unord || a <= b;
    case kGtu: return unord || a > b;
    case kGeu: return unord || a >= b;
    case kNum: return !unord;
    case kNan: return unord;
    default: return false;
  }
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

void CtaEmulator::warp_level(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  if (in.op == Op::kActivemask) {
    for (uint32_t m = mask; m; m &= m - 1) reg(wp, in.ops[0].reg, uint32_t(__builtin_ctz(m))) = mask;
    return;
  }
  if (in.op == Op::kVote) {
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
    return;
  }
  // shfl.sync.mode.b32 d, a, b, c, membermask
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

void CtaEmulator::atomic(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const bool red = in.op == Op::kRed;
  const Operand& addr = red ? in.ops[0] : in.ops[1];
  const size_t vi = red ? 1 : 2;
  const uint32_t n = uint32_t(ty_bytes(in.type));
  uint8_t rec_space = 0;
  for (uint32_t m = mask; m; m &= m - 1) {  // lanes in order: deterministic
    uint32_t l = uint32_t(__builtin_ctz(m));
    Space sp;
    uint64_t a = address(wp, addr, l, in, sp);
    uint64_t old = load(w, l, sp, a, n, in);
    uint64_t b = value(wp, w, in.ops[vi], l), r = old;
    auto umask = [&](uint64_t v) { return n == 8 ? v : v & 0xffffffffu; };
    switch (in.sub) {
      case kAtAdd:
        if (in.type == kF32) r = bits<float>(as<float>(old) + as<float>(b));
        else if (in.type == kF64) r = bits<double>(as<double>(old) + as<double>(b));
        else r = umask(old + b);
        break;
      case kAtMin:
      case kAtMax: {
        bool less;
        if (in.type == kS32) less = as<int32_t>(b) < as<int32_t>(old);
        else if (in.type == kS64) less = int64_t(b) < int64_t(old);
        else if (in.type == kF32) less = as<float>(b) < as<float>(old);
        else less = umask(b) < umask(old);
        if ((in.sub == kAtMin) == less) r = b;
        break;
      }
      case kAtInc: r = umask(old) >= umask(b) ? 0 : umask(old + 1); break;
      case kAtDec: r = (umask(old) == 0 || umask(old) > umask(b)) ? umask(b) : umask(old - 1); break;
      case kAtCas: r = umask(old) == umask(b) ? value(wp, w, in.ops[3], l) : old; break;
      case kAtExch: r = b; break;
      case kAtAnd: r = old & b; break;
      case kAtOr: r = old | b; break;
      case kAtXor: r = old ^ b; break;
      default: fault(w, l, in, "unsupported atomic operation");
    }
    store(w, l, sp, a, n, r, in);
    if (!red) reg(wp, in.ops[0].reg, l) = old;
    lane_addr_[l] = sp == kSpShared && (in.space == kSpNone || in.space == kSpGeneric) ? L.shmem_base + a : a;
    if (!rec_space) rec_space = sp == kSpShared ? isa::kMemShared : isa::kMemGlobal;
  }
  record(w, int32_t(&in - P.insts.data()), mask, in, rec_space);
}

// tex.1d.v4.<elem>.s32 {d0..d3}, [texobj, {x}]: point sampling of linear
// memory (tex1Dfetch); out-of-range coordinates read 0 (border). A texture
// of c 32-bit channels fills components 0..c-1, the others read 0. Other
// texture objects (2-D, arrays, narrow channels, normalized reads) are
// refused, never read wrongly.
void CtaEmulator::texture(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const Operand& d = in.ops[0];
  const Operand& a = in.ops[1];
  for (uint32_t m = mask; m; m &= m - 1) {
    uint32_t l = uint32_t(__builtin_ctz(m));
    uint64_t handle = a.reg >= 0 ? reg(wp, a.reg, l) : 0;
    const DeviceMemory::Texture* t = L.mem->texture(handle);
    if (!t) fault(w, l, in, "texture handle " + std::to_string(handle) + " is not a texture object of this device");
    bool want_float = in.type2 == kF32;
    if (t->shape != DeviceMemory::Texture::Shape::kLinear1d || t->surface || t->normalized_read ||
        t->channel_bits != 32 || t->elem_bytes != 4u * t->channels)
      fault(w, l, in, "tex.1d reads texture objects over linear memory with 32-bit channels read as elements; "
                      "this one (2-D / array / surface / narrow or normalized channels) is not supported yet");
    if (want_float != (t->kind == 'f')) fault(w, l, in, "texture element type does not match the tex instruction");
    int32_t x = as<int32_t>(reg(wp, a.vec[0], l));
    uint32_t v[4] = {0, 0, 0, 0};
    uint64_t addr = t->ptr;
    if (x >= 0 && uint64_t(x) < t->count) {
      addr = t->ptr + uint64_t(x) * t->elem_bytes;
      L.mem->load(addr, v, t->elem_bytes);
    }
    for (int e = 0; e < d.nvec; ++e)
      if (d.vec[e] >= 0) reg(wp, d.vec[e], l) = v[e];
    if (d.kind == Operand::kReg) reg(wp, d.reg, l) = v[0];
    lane_addr_[l] = addr;
  }
  record(w, int32_t(&in - P.insts.data()), mask, in, isa::kMemTex);
}

void CtaEmulator::exec(uint32_t w, const Inst& in, uint32_t mask, int32_t pc) {
  Warp& wp = warps_[w];
  switch (in.op) {
    case Op::kLd: case Op::kLdu: case Op::kSt:
      if (in.space == kSpParam && in.op != Op::kSt) {
        // kernel parameters: read from the buffer, no record (constant bank operand)
        mem_access(w, in, mask);
        return;
      }
      return mem_access(w, in, mask);
    case Op::kAtom: case Op::kRed: return atomic(w, in, mask);
    case Op::kTex: return texture(w, in, mask);
    case Op::kMov: {
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
      break;
    }
    case Op::kCvta: {
      for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = uint32_t(__builtin_ctz(m));
        uint64_t a = value(wp, w, in.ops[1], l);
        uint64_t base = in.space == kSpShared ? L.shmem_base : in.space == kSpLocal ? L.local_base : 0;
        reg(wp, in.ops[0].reg, l) = in.mods & kMTo ? a - base : a + base;
      }
      break;
    }
    case Op::kCvt: convert(w, in, mask); break;
    case Op::kSetp: compare(w, in, mask); break;
    case Op::kShfl: case Op::kVote: case Op::kActivemask: warp_level(w, in, mask); break;
    case Op::kMembar: case Op::kFence: case Op::kPrefetch: case Op::kNanosleep: break;
    case Op::kTrap:  // __trap(): the kernel stops with an error, as cudaErrorLaunchFailure
      if (mask) fault(w, uint32_t(__builtin_ctz(mask)), in, "trap executed (__trap() or a provable fault): the kernel stops");
      break;
    default: alu(w, in, mask);
  }
  record(w, pc, mask, in, 0);
}

}  // namespace accelsim::ptx
