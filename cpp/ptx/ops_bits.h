// Semantics of the PTX logic, shift, bit-field and selection opcodes, one
// struct per opcode (the contract is ptx/ops_arith.h's).
#pragma once
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "ptx/lane.h"

namespace accelsim::ptx::ops {

template <class T>
constexpr int kBits = 8 * sizeof(T);

struct And {
  template <class T>
  static uint64_t integer(Lane<T>& x) { return bits<T>(T(x.a & x.b)); }
  static bool predicate(bool a, bool b, uint64_t) { return a && b; }
};

struct Or {
  template <class T>
  static uint64_t integer(Lane<T>& x) { return bits<T>(T(x.a | x.b)); }
  static bool predicate(bool a, bool b, uint64_t) { return a || b; }
};

struct Xor {
  template <class T>
  static uint64_t integer(Lane<T>& x) { return bits<T>(T(x.a ^ x.b)); }
  static bool predicate(bool a, bool b, uint64_t) { return a != b; }
};

struct Not {
  template <class T>
  static uint64_t integer(Lane<T>& x) { return bits<T>(T(~x.a)); }
  static bool predicate(bool a, bool, uint64_t) { return !a; }
};

struct Cnot {
  template <class T>
  static uint64_t integer(Lane<T>& x) { return x.a == 0 ? 1 : 0; }
};

// Shift amounts are .u32 (operand 2's raw bits); beyond the width: 0, or the
// sign for a signed right shift.
struct Shl {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    const uint32_t s = uint32_t(x.op[2]);
    return s >= kBits<T> ? 0 : bits<T>(T(U(x.a) << s));
  }
};

struct Shr {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    const uint32_t s = uint32_t(x.op[2]);
    if (std::is_signed_v<T>) return bits<T>(T(x.a >> std::min<uint32_t>(s, kBits<T> - 1)));
    return s >= kBits<T> ? 0 : bits<T>(T(U(x.a) >> s));
  }
};

struct Popc {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    return uint32_t(__builtin_popcountll(uint64_t(U(x.a))));
  }
};

struct Clz {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    return U(x.a) == 0 ? kBits<T> : uint32_t(__builtin_clzll(uint64_t(U(x.a))) - (64 - kBits<T>));
  }
};

// bfind: the position of the most significant bit that differs from the
// sign (for a negative signed value, its most significant 0), 0xffffffff if
// there is none; .shiftamt: the left shift that moves that bit to the top.
struct Bfind {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    U v = U(x.a);
    if constexpr (std::is_signed_v<T>)
      if (x.a < 0) v = U(~v);
    if (v == 0) return 0xffffffffu;
    const uint32_t pos = uint32_t(63 - __builtin_clzll(uint64_t(v)));
    return (x.in.mods & kMShiftAmt) ? kBits<T> - 1 - pos : pos;
  }
};

struct Brev {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    U v = U(x.a), y = 0;
    for (int i = 0; i < kBits<T>; ++i) y = U(y | (((v >> i) & 1) << (kBits<T> - 1 - i)));
    return bits<U>(y);
  }
};

// bfe d, a, pos, len: len bits of a from pos, sign-extended for signed types.
struct Bfe {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    constexpr uint32_t n = kBits<T>;
    const uint32_t pos = uint32_t(x.op[2]) & 0xff, len = uint32_t(x.op[3]) & 0xff;
    const U v = U(x.a);
    const bool sbit = std::is_signed_v<T> && len > 0 && ((v >> std::min<uint32_t>(pos + len - 1, n - 1)) & 1);
    U res = 0;
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t bit = i < len && pos + i < n ? (v >> (pos + i)) & 1 : sbit;
      res = U(res | (U(bit) << i));
    }
    return bits<U>(res);
  }
};

// bfi d, f, base, pos, len: len bits of f into base at pos.
struct Bfi {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    const U f = U(x.a);
    U base = U(x.b);
    const uint32_t pos = uint32_t(x.op[3]) & 0xff, len = uint32_t(x.op[4]) & 0xff;
    for (uint32_t i = 0; i < len && pos + i < uint32_t(kBits<T>); ++i)
      base = U((base & ~(U(1) << (pos + i))) | (((f >> i) & 1) << (pos + i)));
    return bits<U>(base);
  }
};

// prmt.b32 d, a, b, sel: each result byte picks one of the 8 bytes of {b, a}
// (sel's nibble; bit 3 replicates the byte's sign).
struct Prmt {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    const uint32_t sel = uint32_t(x.op[3]);
    const uint64_t bytes = uint64_t(uint32_t(x.a)) | (uint64_t(uint32_t(x.b)) << 32);
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      uint32_t s = (sel >> (4 * k)) & 0xf;
      uint8_t byte = uint8_t(bytes >> (8 * (s & 7)));
      if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
      v |= uint32_t(byte) << (8 * k);
    }
    return v;
  }
};

// lop3.b32 d, a, b, c, lut: any 3-input function, bit by bit.
struct Lop3 {
  template <class T>
  static uint64_t integer(Lane<T>& x) {
    using U = std::make_unsigned_t<T>;
    const U a = U(x.a), b = U(x.b), c = as<U>(x.op[3]);
    const uint32_t lut = uint32_t(x.op[4]);
    U res = 0;
    for (int i = 0; i < kBits<T>; ++i) {
      uint32_t idx = uint32_t(((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1));
      res = U(res | (U((lut >> idx) & 1) << i));
    }
    return bits<U>(res);
  }
};

// selp d, a, b, p: a where p, else b.
struct Selp {
  template <class T>
  static uint64_t integer(Lane<T>& x) { return x.op[3] ? bits<T>(x.a) : bits<T>(x.b); }
  template <class F>
  static F floating(Lane<F>& x) { return x.op[3] ? x.a : x.b; }
  static bool predicate(bool a, bool b, uint64_t c) { return c ? a : b; }
};

// slct d, a, b, c: a where c >= 0 (c is .s32 or .f32: the second type).
struct Slct {
  template <class T>
  static bool pick_a(const Lane<T>& x) {
    const uint64_t c = x.op[3];
    return x.in.type2 == kF32 ? as<float>(c) >= 0.0f : as<int32_t>(c) >= 0;
  }
  template <class T>
  static uint64_t integer(Lane<T>& x) { return pick_a(x) ? bits<T>(x.a) : bits<T>(x.b); }
  template <class F>
  static F floating(Lane<F>& x) { return pick_a(x) ? x.a : x.b; }
};

}  // namespace accelsim::ptx::ops
