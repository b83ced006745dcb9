// Semantics of the PTX arithmetic opcodes, one struct per opcode (its row in
// ptx/opcodes.def names it as the executor arith<Name>). Each struct has
//   template <class T> static uint64_t integer(Lane<T>&)  for integer types,
//   template <class F> static F floating(Lane<F>&)        for f32 / f64,
//   static bool predicate(bool a, bool b, uint64_t c)     for .pred,
// whichever the opcode has; CtaEmulator::arith calls the one for the
// instruction's type once per lane (a type with no function is a fault).
// Results are the destination register's raw bits (integers) or the value
// (floats; .ftz and .sat are applied after).
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "ptx/lane.h"

namespace accelsim::ptx::ops {

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

// Extended-precision chains (add.cc / addc / sub.cc / subc / mad.cc / madc):
// carry (borrow for sub) in when `cin`, out when .cc.
template <class T>
uint64_t carry_chain(Lane<T>& x, bool sub, bool mad, bool cin) {
  using U = std::make_unsigned_t<T>;
  U a = U(x.a), b = U(x.b), c = cin ? x.carry : 0;
  U res;
  bool cout;
  if (sub) {
    res = U(a - b - c);
    cout = a < b || (c && a == b);
  } else {
    if (mad) {
      U addend = as<U>(x.op[3]);
      a = x.in.mods & kMHi ? U(mul_hi(a, b)) : U(a * b);
      b = addend;
    }
    res = U(a + b + c);
    cout = res < a || (c && res == a);
  }
  if (x.in.mods & kMCc) x.carry = cout;
  return bits<U>(res);
}

struct Add {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    if (x.in.mods & kMCc) return carry_chain(x, false, false, false);
    return bits<T>(x.in.mods & kMSat ? saturate_add(x.a, x.b, false) : T(U(x.a) + U(x.b)));
  }
  template <class F>
  static F floating(Lane<F>& x) { return x.a + x.b; }
};

struct Sub {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    if (x.in.mods & kMCc) return carry_chain(x, true, false, false);
    return bits<T>(x.in.mods & kMSat ? saturate_add(x.a, x.b, true) : T(U(x.a) - U(x.b)));
  }
  template <class F>
  static F floating(Lane<F>& x) { return x.a - x.b; }
};

struct Addc {
  template <class T>
  static uint64_t integer(Lane<T>& x) { return carry_chain(x, false, false, true); }
};

struct Subc {
  template <class T>
  static uint64_t integer(Lane<T>& x) { return carry_chain(x, true, false, true); }
};

struct Mul {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    if (x.in.mods & kMWide) return wide(x.a, x.b);
    return x.in.mods & kMHi ? bits<T>(mul_hi(x.a, x.b)) : bits<T>(T(U(x.a) * U(x.b)));
  }
  template <class F>
  static F floating(Lane<F>& x) { return x.a * x.b; }
};

// mad.f32 / mad.f64 round once, as fma.
struct Fma {
  template <class F>
  static F floating(Lane<F>& x) {
    F c = as<F>(x.op[3]);
    if (x.ftz) c = flush(c);
    return std::fma(x.a, x.b, c);
  }
};

struct Mad {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    if (x.in.mods & kMCc) return carry_chain(x, false, true, false);
    const uint64_t c = x.op[3];
    uint64_t r;
    if (x.in.mods & kMWide) r = wide(x.a, x.b) + c;
    else if (x.in.mods & kMHi) r = bits<T>(T(U(mul_hi(x.a, x.b)) + U(as<T>(c))));
    else r = bits<T>(T(U(x.a) * U(x.b) + U(as<T>(c))));
    if ((x.in.mods & kMWide) && sizeof(T) == 2) r &= 0xffffffffu;
    return r;
  }
  template <class F>
  static F floating(Lane<F>& x) { return Fma::floating(x); }
};

struct Madc {
  template <class T>
  static uint64_t integer(Lane<T>& x) { return carry_chain(x, false, true, true); }
};

// 24-bit operands (sign- or zero-extended), the product's low or .hi 32 bits.
template <class T>
uint32_t mul24(const Lane<T>& x) {
  auto low24 = [](T v) {
    return std::is_signed_v<T> ? int64_t(int32_t(uint32_t(v) << 8) >> 8) : int64_t(uint32_t(v) & 0xffffff);
  };
  const int64_t p = low24(x.a) * low24(x.b);
  return x.in.mods & kMHi ? uint32_t(uint64_t(p) >> 16) : uint32_t(p);
}

struct Mul24 {
  template <class T>
  static uint64_t integer(Lane<T>& x) { return mul24(x); }
};

struct Mad24 {
  template <class T>
  static uint64_t integer(Lane<T>& x) { return uint32_t(mul24(x) + uint32_t(x.op[3])); }
};

// Integer division by zero gives all ones (rem: the dividend); MIN / -1 wraps.
struct Div {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    if (x.b == 0) return bits<T>(T(~U(0)));
    if (std::is_signed_v<T> && x.b == T(-1)) return bits<T>(T(U(0) - U(x.a)));
    return bits<T>(T(x.a / x.b));
  }
  template <class F>
  static F floating(Lane<F>& x) { return x.a / x.b; }
};

struct Rem {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    if (x.b == 0) return bits<T>(x.a);
    if (std::is_signed_v<T> && x.b == T(-1)) return 0;
    return bits<T>(T(x.a % x.b));
  }
};

// Float min/max: a NaN operand gives the other; -0 is below +0.
struct Min {
  template <class T>
  static uint64_t integer(Lane<T>& x) { return bits<T>(x.a < x.b ? x.a : x.b); }
  template <class F>
  static F floating(Lane<F>& x) {
    const F a = x.a, b = x.b;
    return std::isnan(a) ? b : std::isnan(b) ? a : (a < b || (a == b && std::signbit(a))) ? a : b;
  }
};

struct Max {
  template <class T>
  static uint64_t integer(Lane<T>& x) { return bits<T>(x.a > x.b ? x.a : x.b); }
  template <class F>
  static F floating(Lane<F>& x) {
    const F a = x.a, b = x.b;
    return std::isnan(a) ? b : std::isnan(b) ? a : (a > b || (a == b && !std::signbit(a))) ? a : b;
  }
};

struct Neg {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    return bits<T>(T(U(0) - U(x.a)));
  }
  template <class F>
  static F floating(Lane<F>& x) { return -x.a; }
};

struct Abs {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    return bits<T>(x.a < 0 ? T(U(0) - U(x.a)) : x.a);
  }
  template <class F>
  static F floating(Lane<F>& x) { return std::fabs(x.a); }
};

}  // namespace accelsim::ptx::ops
