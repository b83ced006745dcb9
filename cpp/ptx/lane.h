// What one lane's semantics function sees (ptx/ops_*.h), and the bit
// helpers the executors share: reinterpretation between raw register bits and
// typed values, .ftz flushing, .sat clamping, the FPU rounding mode of one instruction.
#pragma once
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "ptx/module.h"

namespace accelsim::ptx {

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

// .sat on a float result: NaN and negatives to +0, above 1 to 1.
template <class F>
F saturate(F x) {
  return std::isnan(x) ? F(0) : x < 0 ? F(0) : x > 1 ? F(1) : x;
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
  Rounding(const Rounding&) = delete;
  Rounding& operator=(const Rounding&) = delete;

 private:
  int old_;
};

// One lane of an arithmetic instruction, as CtaEmulator::arith hands it to
// the opcode's semantics: T is the instruction's type (an integer or float
// type; .ftz inputs are already flushed in a and b).
template <class T>
struct Lane {
  T a, b;              // operands 1 and 2 (0 if absent)
  const uint64_t* op;  // op[k]: operand k's raw bits (0 if absent; op[0] unused)
  const Inst& in;
  uint8_t& carry;      // the lane's CC.CF (add.cc, addc, ...)
  bool ftz;
};

}  // namespace accelsim::ptx
