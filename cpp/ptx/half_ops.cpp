#include "ptx/half_ops.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "ptx/half.h"
#include "ptx/lane.h"

namespace accelsim::ptx::half {

namespace {

Mode mode_of(uint32_t mods) {
  if (mods & kMRz) return Mode::Zero;
  if (mods & kMRm) return Mode::Down;
  if (mods & kMRp) return Mode::Up;
  return Mode::Near;
}

uint16_t flush(uint16_t h, Fmt f) { return is_subnormal(h, f) ? uint16_t(h & 0x8000) : h; }

// .sat: NaN and negatives to +0, above 1 to 1.
uint16_t saturate_bits(uint16_t h, Fmt f) {
  if (is_nan(h, f) || (h & 0x8000)) return 0;
  return value(h, f) > 1.0 ? (f == Fmt::F16 ? 0x3c00 : 0x3f80) : h;
}

// One 16-bit lane of arith().
bool lane(Op op, Fmt f, uint32_t mods, uint16_t a, uint16_t b, uint16_t c, uint16_t& out) {
  const bool ftz = (mods & kMFtz) && f == Fmt::F16;
  if (ftz) a = flush(a, f), b = flush(b, f), c = flush(c, f);
  const double x = value(a, f), y = value(b, f), z = value(c, f);
  const Mode m = mode_of(mods);
  double s = 0, t = 0;
  switch (op) {
    case Op::kAdd: two_sum(x, y, s, t); break;
    case Op::kSub: two_sum(x, -y, s, t); break;
    case Op::kMul: s = x * y; break;  // exact: at most 22 significant bits
    case Op::kFma:
    case Op::kMad: two_sum(x * y, z, s, t); break;
    case Op::kNeg: out = a ^ 0x8000; return true;
    case Op::kAbs: out = a & 0x7fff; return true;
    case Op::kMin:
    case Op::kMax: {
      const bool na = is_nan(a, f), nb = is_nan(b, f);
      if (na && nb) out = kNaN;
      else if (na || nb) out = na ? b : a;
      else if (x == y) out = (op == Op::kMin) == bool(a >> 15) ? a : b;  // -0 below +0
      else out = (op == Op::kMin) == (x < y) ? a : b;
      return true;
    }
    default: return false;
  }
  uint16_t r = round(s, t, f, m);
  if (ftz) r = flush(r, f);
  out = mods & kMSat ? saturate_bits(r, f) : r;
  return true;
}

double int_value(uint64_t v, Ty t, double& tail) {
  // The integer split exactly into a double and a (small) exact remainder.
  __int128 x;
  const int bytes = ty_bytes(t);
  if (ty_signed(t)) {
    x = bytes == 1 ? int8_t(v) : bytes == 2 ? int16_t(v) : bytes == 4 ? int32_t(v) : int64_t(v);
  } else {
    x = bytes >= 8 ? v : v & ((uint64_t(1) << (8 * bytes)) - 1);
  }
  const double hi = double(x);
  tail = double(x - __int128(hi));
  return hi;
}

// The source's exact value as x plus tail (the remainder of a 64-bit
// integer); .ftz flushes an f16 or f32 subnormal. False for a source type
// with no conversion here.
bool exact_source(Ty from, uint32_t mods, uint64_t v, double& x, double& tail) {
  const bool ftz = mods & kMFtz;
  if (is_half(from)) {
    x = value(uint16_t(v), from == kBF16 ? Fmt::BF16 : Fmt::F16);
    if (ftz && from == kF16 && is_subnormal(uint16_t(v), Fmt::F16)) x = std::copysign(0.0, x);
  } else if (from == kF32) {
    float g;
    const uint32_t b = uint32_t(v);
    std::memcpy(&g, &b, 4);
    if (ftz && std::fpclassify(g) == FP_SUBNORMAL) g = std::copysign(0.0f, g);
    x = g;
  } else if (from == kF64) {
    std::memcpy(&x, &v, 8);
  } else if (!ty_float(from)) {
    x = int_value(v, from, tail);
  } else {
    return false;
  }
  return true;
}

// A half's value (exact in f32) as f32 bits; NaN as the canonical 0x7fffffff.
uint64_t f32_bits(double x, bool sat) {
  float g = std::isnan(x) ? std::numeric_limits<float>::quiet_NaN() : float(x);
  if (sat) g = ptx::saturate(g);
  uint32_t b;
  std::memcpy(&b, &g, 4);
  return std::isnan(g) ? 0x7fffffffu : b;
}

uint64_t f64_bits(double x, bool sat) {
  if (sat) x = ptx::saturate(x);
  uint64_t b;
  std::memcpy(&b, &x, 8);
  return std::isnan(x) ? 0x7fffffffffffffffull : b;
}

}  // namespace

double operand(Ty type, uint64_t v) { return value(uint16_t(v), type == kBF16 ? Fmt::BF16 : Fmt::F16); }

bool arith(Op op, Ty type, uint32_t mods, uint64_t a, uint64_t b, uint64_t c, uint64_t& out) {
  const Fmt f = type == kBF16 ? Fmt::BF16 : Fmt::F16;
  uint16_t lo, hi = 0;
  if (!lane(op, f, mods, uint16_t(a), uint16_t(b), uint16_t(c), lo)) return false;
  if (type == kF16x2 && !lane(op, f, mods, uint16_t(a >> 16), uint16_t(b >> 16), uint16_t(c >> 16), hi))
    return false;
  out = type == kF16x2 ? (uint64_t(hi) << 16) | lo : lo;
  return true;
}

bool convert(Ty to, Ty from, uint32_t mods, uint64_t v, uint64_t& out) {
  if (to == kF16x2 || from == kF16x2) return false;
  if (mods & (kMRni | kMRzi | kMRmi | kMRpi)) return false;  // round to integer in half precision
  double x, tail = 0;
  if (!exact_source(from, mods, v, x, tail)) return false;
  if (is_half(to)) {
    const Fmt f = to == kBF16 ? Fmt::BF16 : Fmt::F16;
    const uint16_t r = round(x, tail, f, mode_of(mods));
    out = mods & kMSat ? saturate_bits(r, f) : r;
    return true;
  }
  // From a half: exact in f32 and f64.
  if (to == kF32) return out = f32_bits(x, mods & kMSat), true;
  if (to == kF64) return out = f64_bits(x, mods & kMSat), true;
  return false;  // half to integer: the caller's float_to_int on operand()
}

}  // namespace accelsim::ptx::half
