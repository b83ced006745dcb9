// Tokens of PTX source text with their line and column. Comments are dropped;
// everything else (directives, identifiers, numbers, punctuation) is a token.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace accelsim::ptx {

struct Token {
  enum Kind : uint8_t { kIdent, kNumber, kString, kPunct, kEnd };
  Kind kind = kEnd;
  std::string_view text;
  uint32_t line = 0, col = 0;
};

// Splits `src` (which must outlive the tokens) into tokens; throws PtxError
// for a character that starts no token or an unterminated comment / string.
std::vector<Token> tokenize(std::string_view src, const std::string& path);

}  // namespace accelsim::ptx
