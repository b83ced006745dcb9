// One lane of a PTX f16 / bf16 / f16x2 instruction (the emulator's
// CtaEmulator::half_lanes calls these per active lane). See half.h for the rounding.
#pragma once
#include <cstdint>

#include "ptx/module.h"
#include "ptx/types.h"

namespace accelsim::ptx::half {

// add, sub, mul, fma/mad, neg, abs, min, max on .f16, .bf16 or .f16x2
// (both halves); .rn/.rz/.rm/.rp, .ftz (f16) and .sat honoured. False when
// the op has no half-precision form here.
bool arith(Op op, Ty type, uint32_t mods, uint64_t a, uint64_t b, uint64_t c, uint64_t& out);
// cvt with an f16 / bf16 source or destination (the other side f16, bf16,
// f32, f64 or an integer). False for a pair not handled here.
bool convert(Ty to, Ty from, uint32_t mods, uint64_t v, uint64_t& out);
// The value of a .f16 / .bf16 operand (setp).
double operand(Ty type, uint64_t v);
inline bool is_half(Ty t) { return t == kF16 || t == kF16x2 || t == kBF16; }

}  // namespace accelsim::ptx::half
