// The PTX parser's declarations: variable heads and dimensions,
// initialisers, module and function variables, registers.
#include "ptx/isa_limits.h"
#include "ptx/parser.h"
#include "ptx/program.h"

namespace accelsim::ptx {

// `reg`: a .reg declaration (the only state space a .pred may live in).
Parser::VarHead Parser::var_head(bool reg) {
  VarHead h;
  for (;;) {
    if (accept(".align")) {
      const Token& n = peek();
      h.align = uint32_t(number("an alignment"));
      if (h.align == 0 || (h.align & (h.align - 1))) fail(n, "alignment must be a power of two");
    } else if (is(".v2") || is(".v4")) {
      h.vec = next().text == ".v2" ? 2 : 4;
    } else if (is(".ptr")) {
      next();
    } else if (accept(".attribute")) {  // .attribute(.managed): where the host sees it is the runtime's concern
      if (!accept("(")) fail(peek(), "expected '(' after .attribute");
      while (!accept(")")) {
        if (peek().kind == Token::kEnd || is(";")) fail(peek(), "unterminated .attribute(...)");
        next();
      }
    } else {
      break;
    }
  }
  const Token& t = ident("a type");
  h.ty = t.text.size() > 1 ? ty_from(t.text.substr(1)) : kTyNone;
  // a texture / surface reference holds a handle the host binds (Module.bind_texture)
  if (!reg && (t.text == ".texref" || t.text == ".surfref")) h.ty = kB64;
  if (h.ty == kTyNone) fail(t, "unknown type");
  if (h.ty == kTF32 || h.ty == kS4 || h.ty == kU4)  // tensor-core element types, packed into .b32 registers
    fail(t, std::string(t.text) + " names a tensor-core fragment element; declare .b32 registers for fragments");
  if (h.ty == kPred && !reg)
    fail(t, "a .pred variable must be declared in the .reg state space (PTX keeps predicates in registers only)");
  return h;
}

// name plus optional [N] dimensions; returns element count (0 for "[]").
uint64_t Parser::var_dims(bool& unsized) {
  uint64_t count = 1;
  unsized = false;
  while (accept("[")) {
    if (accept("]")) {
      unsized = true;
      count = 0;
      continue;
    }
    const Token& n = peek();
    uint64_t d = number("an array size");
    if (d == 0) fail(n, "bad array size");
    if (d > kMaxVariableBytes || count > kMaxVariableBytes / d)
      fail(n, "array of " + (count > 1 ? std::to_string(count) + " x " : std::string()) + std::to_string(d) +
                  " elements: larger than 4 GiB (variable sizes are 32-bit)");
    count *= d;
    expect("]", "after the array size");
  }
  return count;
}

void Parser::initialiser(Symbol& s, Ty ty) {
  int bytes = ty_bytes(ty);
  int depth = 0;
  for (;;) {
    if (accept("{")) {
      ++depth;
      continue;
    }
    bool neg = accept("-");
    const Token& n = peek();
    uint64_t bits = 0;
    if (n.kind == Token::kIdent) {  // a table of function pointers
      const std::optional<uint64_t> f = function_address(n.text);
      if (!f) fail(n, "address initialisers (a variable holding another variable's address) are not supported yet");
      if (bytes != 8) fail(n, "a function's address fills a 64-bit variable");
      next();
      bits = *f;
    } else {
      bits = imm_bits(immediate(neg), ty);
    }
    for (int b = 0; b < bytes; ++b) s.init.push_back(uint8_t(bits >> (8 * b)));
    while (depth > 0 && accept("}")) --depth;
    if (depth == 0 || !accept(",")) break;
  }
  if (depth != 0) fail(peek(), "unbalanced '{' in initialiser");
  if (s.init.size() > s.size) fail(peek(), "initialiser larger than the variable");
}

// A declared variable's name, space, line, size and alignment (`unsized`:
// declared as `name[]`).
Symbol Parser::declared(const Token& nt, Space sp, const VarHead& h, bool& unsized) {
  Symbol s;
  s.name = std::string(nt.text);
  s.space = sp;
  s.line = nt.line;
  s.col = nt.col;
  s.size = uint32_t(checked_size(nt, var_dims(unsized), h));
  s.align = h.align ? h.align : uint32_t(ty_bytes(h.ty) * h.vec);
  return s;
}

// count x element bytes, refused beyond 32 bits (it would wrap).
uint64_t Parser::checked_size(const Token& at, uint64_t count, const VarHead& h) const {
  const uint64_t elem = uint64_t(ty_bytes(h.ty)) * h.vec;
  if (count > kMaxVariableBytes / elem)
    fail(at, "'" + std::string(at.text) + "' is " + std::to_string(count) + " x " + std::to_string(elem) +
                 " bytes, larger than 4 GiB (sizes are 32-bit)");
  return count * elem;
}

void Parser::module_var(bool is_extern) {
  Space sp = space_from(next().text.substr(1));
  VarHead h = var_head();
  do {
    const Token& nt = ident("a variable name");
    bool unsized;
    Symbol s = declared(nt, sp, h, unsized);
    if (sp == kSpShared && (unsized || (is_extern && s.size == 0))) s.dynamic_shared = true;
    if (accept("=")) initialiser(s, h.ty);
    if (sp == kSpConst) {
      const_bytes_ = (const_bytes_ + s.align - 1) / s.align * s.align + s.size;
      if (const_bytes_ > kMaxConstBytes)
        fail(nt, "the module's .const variables reach " + std::to_string(const_bytes_) +
                     " bytes, beyond the 64 KiB constant bank");
    }
    if (sp != kSpShared) {
      s.global = int32_t(mod_.globals.size());
      globals_[s.name] = s.global;
      mod_.globals.push_back(s);
    } else {
      shared_globals_.push_back(s);
    }
  } while (accept(","));
  expect(";", "after the variable declaration");
}

// Places `s` in its space; static .shared and .local stay within the
// limits ptxas enforces (the error names the variable's declaration).
void Parser::add_sym(Symbol s) {
  auto place = [&](uint32_t& used, uint64_t limit, const char* what, const char* hint) {
    const uint64_t at = (uint64_t(used) + s.align - 1) / s.align * s.align;
    if (at + s.size > limit)
      throw PtxError(path_, s.line, s.col, s.name,
                     std::string(f_->entry ? ".entry " : ".func ") + f_->name + " declares " +
                         std::to_string(at + s.size) + " bytes of " + what + ", beyond the " +
                         std::to_string(limit) + " allowed" + hint);
    s.offset = uint32_t(at);
    used = uint32_t(at + s.size);
  };
  if (s.space == kSpShared && !s.dynamic_shared) {
    place(f_->shared_bytes, kMaxStaticSharedBytes, "static .shared memory",
          " (use dynamic shared memory, sized at launch, for more)");
  } else if (s.space == kSpLocal) {
    place(f_->local_bytes, kMaxLocalBytes, ".local memory per thread", "");
  } else if (s.dynamic_shared) {
    f_->dyn_shared_align = std::max(f_->dyn_shared_align, s.align);
  }
  syms_[s.name] = int(f_->syms.size());
  f_->syms.push_back(std::move(s));
}

void Parser::reg_decl() {
  next();
  VarHead h = var_head(/*reg=*/true);
  if (h.vec != 1) fail(peek(), "vector registers are not supported");
  do {
    const Token& nt = ident("a register name");
    std::string name(nt.text);
    if (accept("<")) {
      const Token& n = peek();
      uint64_t count = number("a register count");
      if (count > (1u << 20)) fail(n, "too many registers");
      expect(">", "after the register count");
      for (uint64_t k = 0; k < count; ++k) new_reg(name + std::to_string(k), h.ty, nt);
    } else {
      new_reg(name, h.ty, nt);
    }
  } while (accept(","));
  expect(";", "after the register declaration");
}

void Parser::new_reg(const std::string& name, Ty ty, const Token& at) {
  // inner scopes ({ } around call sequences and inline asm) may shadow a name
  auto old = regs_.find(name);
  if (depth_ > 1 && !shadowed_.empty()) {
    for (const auto& [n, prev] : shadowed_.back())
      if (n == name) fail(at, "register declared twice");
    shadowed_.back().emplace_back(name, old == regs_.end() ? -1 : old->second);
  } else if (old != regs_.end()) {
    fail(at, "register declared twice");
  }
  if (f_->regs.size() >= (1u << 20)) fail(at, "more than 2^20 registers in one function");
  regs_[name] = int(f_->regs.size());
  f_->regs.push_back(Reg{name, ty});
}

void Parser::local_var() {
  const Token& st = next();
  Space sp = space_from(st.text.substr(1));
  VarHead h = var_head();
  do {
    const Token& nt = ident("a variable name");
    bool unsized;
    Symbol s = declared(nt, sp, h, unsized);
    if (sp == kSpGlobal || sp == kSpConst) fail(nt, "global/const variables must be declared at module level");
    if (accept("=")) fail(peek(), "initialisers are only supported on module-level variables");
    s.scratch = sp == kSpParam;  // a call site's argument / return slot
    add_sym(std::move(s));
  } while (accept(","));
  expect(";", "after the variable declaration");
}

}  // namespace accelsim::ptx
