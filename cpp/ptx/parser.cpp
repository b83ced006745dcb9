// The PTX parser's entry point and module level: directives (.version,
// .target, .address_size, ...) and the dispatch to functions and variables.
// Instructions are parsed generically (opcode{.modifier}* operands;) and
// checked against the opcode table; declarations give registers and
// variables dense ids. ptx/parser.h lists the parser's parts.
#include <cerrno>
#include <cstdlib>

#include "ptx/isa_limits.h"
#include "ptx/parser.h"

namespace accelsim::ptx {

Parser::Parser(const std::string& text, const std::string& path, const OpcodeTable& table)
    : path_(path), table_(table), toks_(tokenize(text, path)) {
  mod_.path = path;
}

Module Parser::run() {
  while (peek().kind != Token::kEnd) top_level();
  return std::move(mod_);
}

uint64_t Parser::number(const char* what) {
  const Token& t = peek();
  if (t.kind != Token::kNumber) fail(t, std::string("expected ") + what);
  next();
  std::string s(t.text);
  while (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.pop_back();
  char* end = nullptr;
  errno = 0;
  uint64_t v = std::strtoull(s.c_str(), &end, 0);
  if (s.empty() || *end || s[0] == '-') fail(t, std::string("bad number for ") + what);
  if (errno == ERANGE) fail(t, std::string("number out of range (above 2^64 - 1) for ") + what);
  return v;
}

// Tokens on the current token's line (directives without ';': .loc, .file).
void Parser::skip_line() {
  uint32_t line = peek().line;
  while (peek().kind != Token::kEnd && peek().line == line) next();
}

void Parser::skip_to_semicolon() {
  while (peek().kind != Token::kEnd && !is(";")) next();
  expect(";", "to end the directive");
}

void Parser::skip_braces() {
  expect("{", "to open the section");
  int depth = 1;
  while (depth > 0) {
    if (peek().kind == Token::kEnd) fail(peek(), "unterminated '{'");
    if (is("{")) ++depth;
    if (is("}")) --depth;
    next();
  }
}

void Parser::top_level() {
  const Token& t = peek();
  if (t.kind != Token::kIdent) fail(t, "expected a directive");
  std::string_view d = t.text;
  if (d == ".version") return next(), version();
  if (d == ".target") return next(), target();
  if (d == ".address_size") {
    next();
    const Token& n = peek();
    mod_.address_size = uint32_t(number("an address size"));
    if (mod_.address_size != 64) fail(n, "only .address_size 64 is supported");
    return;
  }
  if (d == ".file" || d == ".loc") return skip_line();
  if (d == ".pragma") return next(), skip_to_semicolon();
  if (d == ".section") {
    next();
    ident("a section name");
    return skip_braces();
  }
  bool is_extern = false;
  while (is(".visible") || is(".extern") || is(".weak") || is(".common")) is_extern |= next().text == ".extern";
  if (is(".entry") || is(".func")) return function();
  if (is(".global") || is(".const") || is(".shared")) return module_var(is_extern);
  fail(peek(), "unexpected token at module level");
}

void Parser::version() {
  const Token& v = next();
  mod_.version = std::string(v.text);
  mod_.isa = isa_version(v.text);
  if (v.kind != Token::kNumber || mod_.isa == 0)
    fail(v, "not a PTX ISA version (released versions: 1.0 to 9.0, e.g. .version 8.0)");
}

// .target sm_XX{, modifier}: the PTX ISA version must be one that accepts sm_XX.
void Parser::target() {
  for (;;) {
    const Token& tg = ident("a target name");
    std::string_view s = tg.text;
    if (s.substr(0, 3) == "sm_") {
      const uint32_t first = first_version_for(s);
      if (first == 0) fail(tg, "unsupported target (known targets: " + known_targets() + ")");
      if (mod_.isa && mod_.isa < first)
        fail(tg, "PTX ISA version " + version_text(mod_.isa) + " does not support .target " + std::string(s) +
                     " (it needs .version " + version_text(first) + " or later)");
      mod_.target = std::string(s);
      mod_.sm = uint32_t(std::atoi(std::string(s.substr(3)).c_str()));
    }
    if (!accept(",")) break;
  }
}

std::shared_ptr<const Module> parse_module(const std::string& text, const std::string& path,
                                           const OpcodeTable& table) {
  Parser p(text, path, table);
  Module m = p.run();
  bool any = false;
  for (const Function& f : m.funcs) any |= f.entry && f.defined;
  if (!any) throw PtxError(path, 0, 0, "", "no .entry kernel in the module");
  return std::make_shared<const Module>(std::move(m));
}

}  // namespace accelsim::ptx
