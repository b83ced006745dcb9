// 02x: the number parsers the trace reader runs on every token.
#include <string>

#include "base/tokenizer.h"
#include "tests/harness.h"

using namespace accelsim;

TEST_CASE("021-decimal-parser-takes-every-uint64-and-rejects-the-rest") {
  uint64_t v = 7;
  CHECK(parse_u64("0", v) && v == 0);
  CHECK(parse_u64("1234567890123456789", v) && v == 1234567890123456789ull);  // 19 digits
  CHECK(parse_u64("9999999999999999999", v) && v == 9999999999999999999ull);
  CHECK(parse_u64("18446744073709551615", v) && v == UINT64_MAX);             // 20 digits
  CHECK(parse_u64("00000000000000000001", v) && v == 1);
  v = 7;
  CHECK(!parse_u64("18446744073709551616", v));  // one over
  CHECK(!parse_u64("99999999999999999999", v));
  CHECK(!parse_u64("123456789012345678901", v));  // 21 digits
  for (const char* bad : {"", "-1", "+1", "1a", " 1", "1/", ":", "0x10"}) CHECK(!parse_u64(bad, v));
  CHECK(v == 7);  // a failed parse leaves the output alone
  uint32_t w = 0;
  CHECK(parse_u32("4294967295", w) && w == UINT32_MAX);
  CHECK(!parse_u32("4294967296", w));
  int64_t i = 0;
  CHECK(parse_i64("-9223372036854775808", i) && i == INT64_MIN);
  CHECK(!parse_i64("9223372036854775808", i));
  uint64_t h = 0;
  CHECK(parse_hex("0xffffffffffffffff", h) && h == UINT64_MAX);
  CHECK(!parse_hex("0x1ffffffffffffffff", h));
  CHECK(!parse_hex("fg", h));
}
