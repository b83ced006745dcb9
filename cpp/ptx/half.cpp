#include "ptx/half.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace accelsim::ptx::half {

namespace {

struct Shape {
  int p, emin, emax;  // significand bits (with the hidden one), exponent range
  uint16_t inf;
};
constexpr Shape shape(Fmt f) { return f == Fmt::F16 ? Shape{11, -14, 15, 0x7c00} : Shape{8, -126, 127, 0x7f80}; }

// A finite, representable, non-negative value's bits.
uint16_t encode(double v, const Shape& s) {
  if (v == 0) return 0;
  if (v < std::ldexp(1.0, s.emin)) return uint16_t(v / std::ldexp(1.0, s.emin - (s.p - 1)));
  const int e = std::ilogb(v);
  const uint32_t mant = uint32_t(v / std::ldexp(1.0, e - (s.p - 1))) - (1u << (s.p - 1));
  return uint16_t((uint32_t(e + s.emax) << (s.p - 1)) | mant);
}

}  // namespace

double value(uint16_t h, Fmt f) {
  if (f == Fmt::BF16) {
    const uint32_t b = uint32_t(h) << 16;
    float x;
    std::memcpy(&x, &b, 4);
    return x;
  }
  const bool neg = h >> 15;
  const int e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 31) v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (e == 0) v = std::ldexp(double(m), -24);
  else v = std::ldexp(double(1024 + m), e - 25);
  return neg ? -v : v;
}

bool is_nan(uint16_t h, Fmt f) {
  const uint16_t inf = shape(f).inf;
  return (h & inf) == inf && (h & (inf ^ 0x7fff)) != 0;
}

bool is_subnormal(uint16_t h, Fmt f) {
  const uint16_t inf = shape(f).inf;
  return (h & inf) == 0 && (h & 0x7fff) != 0;
}

void two_sum(double a, double b, double& s, double& t) {
  s = a + b;
  const double bb = s - a;
  t = (a - (s - bb)) + (b - bb);
  if (!std::isfinite(s)) t = 0;
}

uint16_t round(double x, double tail, Fmt f, Mode m) {
  const Shape s = shape(f);
  if (std::isnan(x)) return kNaN;
  const bool neg = std::signbit(x);
  const uint16_t sign = neg ? 0x8000 : 0;
  double a = std::fabs(x);
  if (std::isinf(a)) return sign | s.inf;
  const double t = neg ? -tail : tail;  // towards larger magnitude when positive
  // The exact value lies strictly between a and its neighbour on t's side,
  // and no grid point or midpoint of a half format is in between: rounding
  // that neighbour rounds the exact value.
  if (t != 0) a = std::nextafter(a, t > 0 ? std::numeric_limits<double>::infinity() : 0.0);
  if (a == 0) return sign;
  const int e = std::max(std::ilogb(a), s.emin);
  const double q = std::ldexp(1.0, e - (s.p - 1));  // the format's spacing at a
  const double r = a / q, fl = std::floor(r), frac = r - fl;
  double n = fl;
  switch (m) {
    case Mode::Near: n = frac > 0.5 || (frac == 0.5 && std::fmod(fl, 2.0) == 1.0) ? fl + 1 : fl; break;
    case Mode::Zero: break;
    case Mode::Down: n = neg && frac > 0 ? fl + 1 : fl; break;
    case Mode::Up: n = !neg && frac > 0 ? fl + 1 : fl; break;
  }
  const double v = n * q;
  const double max_finite = std::ldexp(2.0 - std::ldexp(1.0, 1 - s.p), s.emax);
  if (v > max_finite) {
    const bool to_inf = m == Mode::Near || (m == Mode::Up && !neg) || (m == Mode::Down && neg);
    return to_inf ? uint16_t(sign | s.inf) : uint16_t(sign | encode(max_finite, s));
  }
  return sign | encode(v, s);
}

}  // namespace accelsim::ptx::half
