// f16 and bf16 as PTX computes them. Every result is the exact value
// rounded once to the destination format (round to nearest even, or the
// instruction's directed mode), which is what the hardware does for add,
// sub, mul, fma and cvt. Exactness comes from doubles plus an error term:
// a product of two halves is exact in a double, and a sum is carried as
// TwoSum's (rounded sum, exact remainder). NaN results are the canonical NaN
// (0x7fff), as on NVIDIA GPUs.
#pragma once
#include <cstdint>

namespace accelsim::ptx::half {

enum class Fmt : uint8_t { F16, BF16 };
enum class Mode : uint8_t { Near, Zero, Down, Up };

constexpr uint16_t kNaN = 0x7fff;

// The exact value of a half (NaN stays NaN, sign included).
double value(uint16_t h, Fmt f);
// x + tail rounded to f; tail is the exact remainder of the operation that
// produced x (|tail| at most half an ulp of x; 0 when x is exact).
uint16_t round(double x, double tail, Fmt f, Mode m);
bool is_subnormal(uint16_t h, Fmt f);
bool is_nan(uint16_t h, Fmt f);

// (s, t) with s = fl(a + b) and s + t = a + b exactly (round-to-nearest
// arithmetic; the caller must not have changed the FPU rounding mode).
void two_sum(double a, double b, double& s, double& t);

}  // namespace accelsim::ptx::half
