// PTX scalar types, state spaces and the modifiers an instruction can carry.
#pragma once
#include <cstdint>
#include <string_view>

namespace accelsim::ptx {

enum Ty : uint8_t {
  kTyNone, kB8, kB16, kB32, kB64, kU8, kU16, kU32, kU64, kS8, kS16, kS32, kS64,
  kF16, kF16x2, kBF16, kF32, kF64, kPred,
  kTF32,  // tensor-core multiplicand: an f32 whose low 13 mantissa bits are ignored (a fragment
          // element of 4 bytes: ptx/mma_fragment.h; no ld/st/arithmetic takes it)
  kS4, kU4,  // tensor-core multiplicands: 4-bit integers, eight to a register (ptx/mma_fragment.h)
  kTyCount
};

inline int ty_bytes(Ty t) {
  switch (t) {
    case kB8: case kU8: case kS8: return 1;
    case kB16: case kU16: case kS16: case kF16: case kBF16: return 2;
    case kB32: case kU32: case kS32: case kF32: case kF16x2: return 4;
    case kB64: case kU64: case kS64: case kF64: return 8;
    default: return 0;
  }
}
inline bool ty_signed(Ty t) { return t == kS8 || t == kS16 || t == kS32 || t == kS64; }
inline bool ty_float(Ty t) { return t == kF16 || t == kF16x2 || t == kBF16 || t == kF32 || t == kF64; }
Ty ty_from(std::string_view s);  // "f32" -> kF32, kTyNone if not a type
const char* ty_name(Ty t);

enum Space : uint8_t { kSpNone, kSpGeneric, kSpGlobal, kSpShared, kSpLocal, kSpConst, kSpParam, kSpTex };
Space space_from(std::string_view s);  // "global" -> kSpGlobal, kSpNone if not a space

}  // namespace accelsim::ptx
