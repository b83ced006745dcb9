// The PTX parser's operands: registers, immediates, addresses, vectors,
// special registers, variables and labels.
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "ptx/parser.h"
#include "ptx/program.h"

namespace accelsim::ptx {

namespace {

struct SpecialName {
  const char* name;
  Special sp;
  bool dims;  // takes .x/.y/.z
};
constexpr SpecialName kSpecials[] = {
    {"%tid", kSpTid, true},         {"%ntid", kSpNtid, true},         {"%ctaid", kSpCtaid, true},
    {"%nctaid", kSpNctaid, true},   {"%laneid", kSpLaneid, false},    {"%warpid", kSpWarpid, false},
    {"%nwarpid", kSpNwarpid, false}, {"%smid", kSpSmid, false},       {"%nsmid", kSpNsmid, false},
    {"%clock", kSpClock, false},    {"%clock64", kSpClock64, false},  {"%lanemask_eq", kSpLanemaskEq, false},
    {"%lanemask_lt", kSpLanemaskLt, false}, {"%lanemask_le", kSpLanemaskLe, false},
    {"%lanemask_gt", kSpLanemaskGt, false}, {"%lanemask_ge", kSpLanemaskGe, false},
    {"%gridid", kSpGridid, false}};

}  // namespace

Operand Parser::immediate(bool neg) {
  const Token& t = next();
  if (t.kind != Token::kNumber) fail(t, "expected a number");
  Operand o;
  o.kind = Operand::kImm;
  o.col = t.col;
  std::string s(t.text);
  char* end = nullptr;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
    bool f32 = s[1] == 'f' || s[1] == 'F';
    if (s.size() != (f32 ? 10u : 18u)) fail(t, "bad float literal");
    o.imm = int64_t(std::strtoull(s.c_str() + 2, &end, 16));
    if (*end) fail(t, "bad float literal");
    o.lit = f32 ? 1 : 2;
    if (neg) o.imm ^= f32 ? int64_t(0x80000000) : int64_t(1ull << 63);
    return o;
  }
  bool is_float = s.find('.') != std::string::npos ||
                  (s.find_first_of("eE") != std::string::npos && s.find_first_of("xX") == std::string::npos);
  errno = 0;
  if (is_float) {
    o.lit = 3;
    o.fval = std::strtod(s.c_str(), &end);
    if (*end) fail(t, "bad number");
    if (errno == ERANGE && std::abs(o.fval) > 1) fail(t, "floating-point constant out of range (beyond .f64)");
    if (neg) o.fval = -o.fval;
    return o;
  }
  while (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.pop_back();
  o.imm = int64_t(std::strtoull(s.c_str(), &end, 0));
  if (s.empty() || *end) fail(t, "bad number");
  // PTX integer constants are 64-bit: ptxas reports "Constant overflow"
  if (errno == ERANGE) fail(t, "integer constant out of range (PTX constants are 64-bit)");
  if (neg) o.imm = int64_t(0 - uint64_t(o.imm));
  return o;
}

int Parser::reg_or_fail(const Token& t) {
  auto it = regs_.find(std::string(t.text));
  if (it == regs_.end()) fail(t, "undefined register");
  return it->second;
}

// "{r1, r2, _, r4}" after its '{'.
Operand Parser::vector_operand(Operand o) {
  o.kind = Operand::kVec;
  do {
    if (o.nvec >= vec_max_) fail(peek(), "vector operand with more than " + std::to_string(vec_max_) + " elements");
    const Token& e = ident("a register");
    o.vec[o.nvec++] = e.text == "_" ? -1 : reg_or_fail(e);
  } while (accept(","));
  expect("}", "to close the vector operand");
  return o;
}

// "[reg|var|number [+-offset]]" after its '[', or tex's "[texture, {coordinates}]".
Operand Parser::address_operand(Operand o) {
  o.kind = Operand::kAddr;
  const Token& b = peek();
  if (b.kind == Token::kNumber) {
    o.imm = int64_t(number("an address"));
  } else {
    next();
    if (b.kind != Token::kIdent) fail(b, "expected a register, variable or number in the address");
    std::string n(b.text);
    if (auto r = regs_.find(n); r != regs_.end()) o.reg = r->second;
    else if (auto s = syms_.find(n); s != syms_.end()) o.sym = s->second;
    else fail(b, "undefined register or variable in address");
    if (is("+") || is("-")) {
      bool neg = next().text == "-";
      if (accept("-")) neg = !neg;  // nvcc writes [%r1+-4]
      uint64_t v = number("an address offset");
      o.imm = int64_t(neg ? 0 - v : v);
    }
  }
  if (is(",") && is("{", 1)) {  // tex: [texture, {coordinates}]
    next(), next();
    do {
      if (o.nvec >= 4) fail(peek(), "more than 4 coordinates");
      o.vec[o.nvec++] = reg_or_fail(ident("a coordinate register"));
    } while (accept(","));
    expect("}", "to close the coordinates");
  }
  expect("]", "to close the address");
  return o;
}

// A register ("%r1", "%r1|%p2"), sink "_", special register, variable or label.
Operand Parser::named_operand(const Token& t, Operand o) {
  next();
  std::string n(t.text);
  if (n == "_") {
    o.kind = Operand::kSink;
    return o;
  }
  if (auto r = regs_.find(n); r != regs_.end()) {
    o.kind = Operand::kReg;
    o.reg = r->second;
    if (accept("|")) o.reg2 = reg_or_fail(ident("a predicate register"));
    return o;
  }
  if (n[0] == '%') {
    std::string base = n, dim;
    if (size_t d = n.find('.'); d != std::string::npos) base = n.substr(0, d), dim = n.substr(d + 1);
    for (const SpecialName& sp : kSpecials)
      if (base == sp.name) {
        o.kind = Operand::kSpecial;
        o.special = sp.sp;
        if (sp.dims) {
          if (dim != "x" && dim != "y" && dim != "z") fail(t, "special register needs .x, .y or .z");
          o.comp = uint8_t(dim[0] - 'x');
        } else if (!dim.empty()) {
          fail(t, "special register takes no component");
        }
        return o;
      }
    fail(t, "undefined register");
  }
  if (auto s = syms_.find(n); s != syms_.end()) {
    o.kind = Operand::kSym;
    o.sym = s->second;
    return o;
  }
  if (auto a = function_address(n)) {  // a function's address (mov.u64 %rd1, f)
    o.kind = Operand::kImm;
    o.imm = int64_t(*a);
    return o;
  }
  o.kind = Operand::kLabel;  // resolved once the body is read
  o.name = n;
  o.imm = t.line;            // where, for the error if it stays unresolved
  return o;
}

Operand Parser::operand() {
  const Token& t = peek();
  Operand o;
  o.col = t.col;
  if (accept("{")) return vector_operand(o);
  if (accept("[")) return address_operand(o);
  if (accept("!")) {
    const Token& p = ident("a predicate register");
    o.kind = Operand::kReg;
    o.reg = reg_or_fail(p);
    o.neg = true;
    return o;
  }
  if (accept("-")) {
    if (peek().kind == Token::kNumber) return immediate(true);
    fail(peek(), "negated register operands are not PTX");
  }
  if (t.kind == Token::kNumber) return immediate(false);
  if (t.kind != Token::kIdent) fail(t, "expected an operand");
  if (t.kind == Token::kNumber) return immediate(false);
  if (t.kind != Token::kIdent) fail(t, "expected an operand");
  return named_operand(t, o);
}

}  // namespace accelsim::ptx
