#include "ptx/lexer.h"

#include <cctype>

#include "ptx/ptx_error.h"

namespace accelsim::ptx {

namespace {

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

std::string shown(char c) {
  if (c >= 32 && c < 127) return std::string(1, c);
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
  return buf;
}

}  // namespace

std::vector<Token> tokenize(std::string_view s, const std::string& path) {
  std::vector<Token> out;
  uint32_t line = 1;
  size_t line_start = 0, i = 0;
  auto col = [&](size_t at) { return uint32_t(at - line_start + 1); };
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') {
      ++line;
      line_start = ++i;
      continue;
    }
    if (static_cast<unsigned char>(c) <= ' ') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      uint32_t l0 = line, c0 = col(i);
      i += 2;
      while (i + 1 < s.size() && !(s[i] == '*' && s[i + 1] == '/')) {
        if (s[i] == '\n') ++line, line_start = i + 1;
        ++i;
      }
      if (i + 1 >= s.size()) throw PtxError(path, l0, c0, "/*", "unterminated comment");
      i += 2;
      continue;
    }
    Token t;
    t.line = line;
    t.col = col(i);
    size_t b = i;
    if (c == '"') {
      ++i;
      while (i < s.size() && s[i] != '"' && s[i] != '\n') ++i;
      if (i >= s.size() || s[i] != '"') throw PtxError(path, t.line, t.col, "\"", "unterminated string");
      ++i;
      t.kind = Token::kString;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      // 123, 0x1F, 0f3F800000, 0d3FF0..., 1.5, 1e-3, 12U
      ++i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' ||
                              ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E') &&
                               !(s[b] == '0' && b + 1 < s.size() && (s[b + 1] | 0x20) == 'x'))))
        ++i;
      t.kind = Token::kNumber;
    } else if (ident_start(c)) {
      ++i;
      // '.' joins parts of a directive name only at the start (".visible");
      // "ld.global.f32" stays one token, split by the parser on '.'.
      while (i < s.size()) {
        if (ident_char(s[i]) || s[i] == '.') {
          ++i;
        } else if (s[i] == ':' && i + 2 < s.size() && s[i + 1] == ':' && ident_char(s[i + 2])) {
          i += 2;  // cache hints: ld.global.L1::evict_last
        } else {
          break;
        }
      }
      t.kind = Token::kIdent;
    } else if (std::string_view("{}()[],;:@!+-<>=|*").find(c) != std::string_view::npos) {
      ++i;
      t.kind = Token::kPunct;
    } else {
      throw PtxError(path, t.line, t.col, shown(c), "unexpected character");
    }
    t.text = s.substr(b, i - b);
    out.push_back(t);
  }
  Token end;
  end.line = line;
  end.col = col(i);
  out.push_back(end);
  return out;
}

}  // namespace accelsim::ptx
