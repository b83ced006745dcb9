// 13x: half-precision rounding (ptx/half.h): one rounding of the exact value.
#include <cmath>

#include "ptx/half.h"
#include "tests/harness.h"

using namespace accelsim::ptx::half;

TEST_CASE("131-f16-rounds-ties-to-even-and-overflows-by-mode") {
  const double one = 1.0, ulp = std::ldexp(1.0, -10);
  CHECK_EQ(round(one + ulp / 2, 0, Fmt::F16, Mode::Near), 0x3c00);      // tie: to even
  CHECK_EQ(round(one + 3 * ulp / 2, 0, Fmt::F16, Mode::Near), 0x3c02);  // tie: to even (up)
  CHECK_EQ(round(one + ulp / 2, 1e-30, Fmt::F16, Mode::Near), 0x3c01);  // above the tie
  CHECK_EQ(round(one + ulp / 2, -1e-30, Fmt::F16, Mode::Near), 0x3c00);
  CHECK_EQ(round(-(one + ulp / 2), 0, Fmt::F16, Mode::Down), 0xbc01);
  CHECK_EQ(round(one + ulp / 2, 0, Fmt::F16, Mode::Up), 0x3c01);
  CHECK_EQ(round(one + ulp / 2, 0, Fmt::F16, Mode::Zero), 0x3c00);
  CHECK_EQ(round(one, -1e-30, Fmt::F16, Mode::Zero), 0x3bff);  // just below 1, truncated
  CHECK_EQ(round(65520.0, 0, Fmt::F16, Mode::Near), 0x7c00);  // half-way to 2^16: inf
  CHECK_EQ(round(65519.0, 0, Fmt::F16, Mode::Near), 0x7bff);
  CHECK_EQ(round(1e6, 0, Fmt::F16, Mode::Zero), 0x7bff);      // largest finite
  CHECK_EQ(round(-1e6, 0, Fmt::F16, Mode::Up), 0xfbff);
  CHECK_EQ(round(std::ldexp(1.0, -25), 0, Fmt::F16, Mode::Near), 0x0000);      // tie below the
  CHECK_EQ(round(3 * std::ldexp(1.0, -25), 0, Fmt::F16, Mode::Near), 0x0002);  // smallest subnormal
  CHECK_EQ(round(-0.0, 0, Fmt::F16, Mode::Near), 0x8000);
  CHECK_EQ(round(NAN, 0, Fmt::F16, Mode::Near), kNaN);
  CHECK_EQ(value(0x0001, Fmt::F16), std::ldexp(1.0, -24));
  CHECK_EQ(value(0xc000, Fmt::F16), -2.0);
  CHECK(is_subnormal(0x03ff, Fmt::F16) && !is_subnormal(0x0400, Fmt::F16));
}

TEST_CASE("132-bf16-rounds-the-exact-sum-once") {
  CHECK_EQ(round(1.0 + std::ldexp(1.0, -8), 0, Fmt::BF16, Mode::Near), 0x3f80);  // tie: to even
  CHECK_EQ(round(1.0 + std::ldexp(1.0, -8), 1e-300, Fmt::BF16, Mode::Near), 0x3f81);
  // 2^100 + 1 + 2^-60: a double rounds it, the (sum, remainder) pair keeps it
  double s, t;
  two_sum(std::ldexp(1.0, 100), std::ldexp(1.0, 92), s, t);  // exactly the bf16 midpoint
  CHECK_EQ(t, 0.0);
  two_sum(s, std::ldexp(1.0, 20), s, t);  // a tiny excess a double cannot hold
  CHECK(t != 0.0);
  CHECK_EQ(round(s, t, Fmt::BF16, Mode::Near), 0x7181);  // above the midpoint: up
  CHECK_EQ(value(0x7f80, Fmt::BF16), INFINITY);
  CHECK(is_nan(0x7fc0, Fmt::BF16) && !is_nan(0x7f80, Fmt::BF16));
}
