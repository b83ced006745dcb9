// Hand-written tokenizing over one line of text: the hot path of the reader,
// so no allocation, no locale, no iostreams.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace accelsim {

// Blanks and control characters all separate tokens (one compare per byte).
inline bool is_space(char c) { return static_cast<unsigned char>(c) <= ' '; }

// Value of a hex digit, or 0xff.
struct HexDigits {
  uint8_t value[256];
  constexpr HexDigits() : value() {
    for (int i = 0; i < 256; ++i) value[i] = 0xff;
    for (int i = 0; i < 10; ++i) value['0' + i] = uint8_t(i);
    for (int i = 0; i < 6; ++i) value['a' + i] = value['A' + i] = uint8_t(10 + i);
  }
};
inline constexpr HexDigits kHexDigits{};

// Whitespace-separated tokens of one line, consumed front to back.
class Tokens {
 public:
  explicit Tokens(std::string_view line) : p_(line.data()), end_(line.data() + line.size()) {}
  // Next token, or an empty view when the line is used up.
  std::string_view next() {
    while (p_ < end_ && is_space(*p_)) ++p_;
    const char* start = p_;
    while (p_ < end_ && !is_space(*p_)) ++p_;
    return {start, size_t(p_ - start)};
  }
  bool done() {
    while (p_ < end_ && is_space(*p_)) ++p_;
    return p_ == end_;
  }
  // The unread rest of the line (leading blanks skipped).
  std::string_view rest() {
    done();
    return {p_, size_t(end_ - p_)};
  }

 private:
  const char* p_;
  const char* end_;
};

// Hex number with optional 0x/0X prefix; false on empty, bad digit or overflow.
inline bool parse_hex(std::string_view s, uint64_t& out) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty() || s.size() > 16) return false;
  uint64_t v = 0;
  for (char c : s) {
    uint8_t d = kHexDigits.value[static_cast<unsigned char>(c)];
    if (d == 0xff) return false;
    v = (v << 4) | d;
  }
  out = v;
  return true;
}

// Unsigned decimal; false on empty, bad digit or overflow.
inline bool parse_u64(std::string_view s, uint64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  uint64_t v = 0;
  if (s.size() < 20) {  // below 10^19: cannot overflow, so no check per digit
    for (char c : s) {
      const unsigned d = unsigned(static_cast<unsigned char>(c)) - '0';
      if (d > 9) return false;
      v = v * 10 + d;
    }
    out = v;
    return true;
  }
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    uint64_t d = uint64_t(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

// Signed decimal (leading '-' or '+'), within int64.
inline bool parse_i64(std::string_view s, int64_t& out) {
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  uint64_t v;
  if (!parse_u64(s, v)) return false;
  if (v > (neg ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX))) return false;
  out = neg ? int64_t(0 - v) : int64_t(v);
  return true;
}

inline bool parse_u32(std::string_view s, uint32_t& out) {
  uint64_t v;
  if (!parse_u64(s, v) || v > UINT32_MAX) return false;
  out = uint32_t(v);
  return true;
}

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// A token for an error message: at most `max` bytes, anything outside
// printable ASCII escaped as \xNN (messages must stay valid UTF-8 text).
inline std::string printable(std::string_view s, size_t max = 40) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < s.size() && i < max; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      out += "\\x";
      out += digits[c >> 4];
      out += digits[c & 15];
    }
  }
  if (s.size() > max) out += "...";
  return out;
}

}  // namespace accelsim
