// Semantics of the PTX transcendental and floating-point classification
// opcodes, one struct per opcode (the contract is ptx/ops_arith.h's).
// .approx functions use the host's libm (docs/ptx.md gives the bound).
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

#include "ptx/lane.h"

namespace accelsim::ptx::ops {

struct Sqrt {
  template <class F>
  static F floating(Lane<F>& x) { return std::sqrt(x.a); }
};

struct Rsqrt {
  template <class F>
  static F floating(Lane<F>& x) { return F(1) / std::sqrt(x.a); }
};

struct Rcp {
  template <class F>
  static F floating(Lane<F>& x) { return F(1) / x.a; }
};

struct Sin {
  template <class F>
  static F floating(Lane<F>& x) { return std::sin(x.a); }
};

struct Cos {
  template <class F>
  static F floating(Lane<F>& x) { return std::cos(x.a); }
};

struct Ex2 {
  template <class F>
  static F floating(Lane<F>& x) { return std::exp2(x.a); }
};

struct Lg2 {
  template <class F>
  static F floating(Lane<F>& x) { return std::log2(x.a); }
};

// copysign d, a, b: b's magnitude with a's sign.
struct Copysign {
  template <class F>
  static F floating(Lane<F>& x) { return std::copysign(x.b, x.a); }
};

// testp.op d, a: a predicate, so the raw result (no .ftz / .sat on it).
struct Testp {
  template <class F>
  static uint64_t floating_raw(Lane<F>& x) {
    const std::string& s = x.in.spelling;
    const F a = x.a;
    if (s.find(".finite") != std::string::npos) return std::isfinite(a);
    if (s.find(".infinite") != std::string::npos) return std::isinf(a);
    if (s.find(".notanumber") != std::string::npos) return std::isnan(a);
    if (s.find(".number") != std::string::npos) return !std::isnan(a);
    if (s.find(".subnormal") != std::string::npos) return std::fpclassify(a) == FP_SUBNORMAL;
    if (s.find(".normal") != std::string::npos) return std::isnormal(a);
    return 0;
  }
};

}  // namespace accelsim::ptx::ops
