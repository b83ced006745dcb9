#pragma once
// UTF-8 validation of text that reaches Python as str (kernel names): the
// same rules as Python's strict decoder (no overlong forms, no surrogates,
// nothing above U+10FFFF), so text that passes here always converts.

#include <cstddef>
#include <string_view>

namespace accelsim {

// The length of the well-formed sequence starting at s[i], or 0 when it is not one.
inline size_t utf8_sequence_length(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = at(i);
  if (c < 0x80) return 1;
  size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (n == 0 || c > 0xF4 || i + n > s.size()) return 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (c == 0xE0) lo = 0xA0;            // overlong 3-byte forms
  if (c == 0xED) hi = 0x9F;            // surrogates
  if (c == 0xF0) lo = 0x90;            // overlong 4-byte forms
  if (c == 0xF4) hi = 0x8F;            // above U+10FFFF
  if (at(i + 1) < lo || at(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if ((at(i + k) & 0xC0) != 0x80) return 0;
  return n;
}

// The offset of the first byte that is not part of well-formed UTF-8, or npos.
inline size_t utf8_error_at(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    size_t n = utf8_sequence_length(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

}  // namespace accelsim
