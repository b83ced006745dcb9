#include "ptx/lexer.h"

#include <array>
#include <cstdio>

#include "ptx/ptx_error.h"

namespace accelsim::ptx {

namespace {

// Character classes, one bit each, from one ASCII table (so the result does
// not depend on the process's locale; bytes >= 128 are in no class).
enum Class : uint8_t {
  kBlank = 1,       // control characters and space ('\n' too; the scanner counts lines)
  kDigit = 2,       // starts a number
  kAlnum = 4,       // letters and digits: inside a number
  kWord = 8,        // letters, digits, '_', '$': inside an identifier
  kIdentStart = 16, // letters, '_', '$', '%', '.'
  kPunctuation = 32,
};

constexpr std::array<uint8_t, 256> make_classes() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c <= ' '; ++c) t[size_t(c)] |= kBlank;
  for (int c = '0'; c <= '9'; ++c) t[size_t(c)] |= kDigit | kAlnum | kWord;
  for (int c = 'a'; c <= 'z'; ++c) t[size_t(c)] |= kAlnum | kWord | kIdentStart;
  for (int c = 'A'; c <= 'Z'; ++c) t[size_t(c)] |= kAlnum | kWord | kIdentStart;
  for (char c : {'_', '$'}) t[size_t(c)] |= kWord | kIdentStart;
  for (char c : {'%', '.'}) t[size_t(c)] |= kIdentStart;
  for (char c : std::string_view("{}()[],;:@!+-<>=|*")) t[size_t(c)] |= kPunctuation;
  return t;
}
constexpr std::array<uint8_t, 256> kClasses = make_classes();

bool in(char c, uint8_t cls) { return (kClasses[static_cast<unsigned char>(c)] & cls) != 0; }

std::string shown(char c) {
  if (c >= 32 && c < 127) return std::string(1, c);
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
  return buf;
}

// One pass over the source: skips blanks and comments, then scans one token
// with the scanner its first character picks.
class Scanner {
 public:
  Scanner(std::string_view s, const std::string& path) : s_(s), path_(path) {}

  std::vector<Token> tokens() {
    std::vector<Token> out;
    while (skip_blanks()) out.push_back(token());
    Token end;
    end.line = line_;
    end.col = col();
    out.push_back(end);
    return out;
  }

 private:
  std::string_view s_;
  const std::string& path_;
  size_t i_ = 0, line_start_ = 0;
  uint32_t line_ = 1;

  char peek(size_t ahead) const { return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0'; }
  uint32_t col() const { return uint32_t(i_ - line_start_ + 1); }
  void newline() { ++line_, line_start_ = i_ + 1; }

  // Past blanks and comments; false at the end of the source.
  bool skip_blanks() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '/' && peek(1) == '/') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else if (c == '/' && peek(1) == '*') {
        block_comment();
      } else if (in(c, kBlank)) {
        if (c == '\n') newline();
        ++i_;
      } else {
        return true;
      }
    }
    return false;
  }

  void block_comment() {
    const uint32_t l0 = line_, c0 = col();
    i_ += 2;
    while (i_ + 1 < s_.size() && !(s_[i_] == '*' && s_[i_ + 1] == '/')) {
      if (s_[i_] == '\n') newline();
      ++i_;
    }
    if (i_ + 1 >= s_.size()) throw PtxError(path_, l0, c0, "/*", "unterminated comment");
    i_ += 2;
  }

  Token token() {
    Token t;
    t.line = line_;
    t.col = col();
    const size_t b = i_;
    t.kind = scan(t);
    t.text = s_.substr(b, i_ - b);
    return t;
  }

  Token::Kind scan(const Token& t) {
    const char c = s_[i_];
    if (c == '"') return string(t);
    if (in(c, kDigit)) return number();
    if (in(c, kIdentStart)) return identifier();
    if (in(c, kPunctuation)) return ++i_, Token::kPunct;
    throw PtxError(path_, t.line, t.col, shown(c), "unexpected character");
  }

  Token::Kind string(const Token& t) {
    ++i_;
    while (i_ < s_.size() && s_[i_] != '"' && s_[i_] != '\n') ++i_;
    if (peek(0) != '"') throw PtxError(path_, t.line, t.col, "\"", "unterminated string");
    ++i_;
    return Token::kString;
  }

  // 123, 0x1F, 0f3F800000, 0d3FF0..., 1.5, 1e-3, 12U: an exponent's sign
  // belongs to a decimal number, never to a hex one (0x1E-1 is a subtraction).
  Token::Kind number() {
    const bool hex = s_[i_] == '0' && (peek(1) | 0x20) == 'x';
    ++i_;
    while (i_ < s_.size() && number_char(s_[i_], s_[i_ - 1], hex)) ++i_;
    return Token::kNumber;
  }
  static bool number_char(char c, char prev, bool hex) {
    return in(c, kAlnum) || c == '.' || ((c == '+' || c == '-') && (prev | 0x20) == 'e' && !hex);
  }

  // '.' joins parts of a directive name only at the start (".visible");
  // "ld.global.f32" stays one token, split by the parser on '.'. "::" joins
  // cache hints: ld.global.L1::evict_last.
  Token::Kind identifier() {
    ++i_;
    for (;;) {
      if (i_ < s_.size() && (in(s_[i_], kWord) || s_[i_] == '.')) ++i_;
      else if (peek(0) == ':' && peek(1) == ':' && in(peek(2), kWord)) i_ += 2;
      else return Token::kIdent;
    }
  }
};

}  // namespace

std::vector<Token> tokenize(std::string_view s, const std::string& path) { return Scanner(s, path).tokens(); }

}  // namespace accelsim::ptx
