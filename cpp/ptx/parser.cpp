// Recursive-descent parser over the token list. Instructions are parsed
// generically (opcode{.modifier}* operands;) and checked against the opcode
// table; declarations give registers and variables dense ids.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "ptx/isa_limits.h"
#include "ptx/lexer.h"
#include "ptx/module.h"
#include "ptx/opcode_table.h"
#include "ptx/program.h"
#include "ptx/ptx_error.h"

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

constexpr const char* kCmpNames[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
                                     "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};

struct ModName {
  const char* name;
  uint32_t bit;
};
constexpr ModName kModBits[] = {
    {"rn", kMRn}, {"rz", kMRz}, {"rm", kMRm}, {"rp", kMRp}, {"rni", kMRni}, {"rzi", kMRzi},
    {"rmi", kMRmi}, {"rpi", kMRpi}, {"ftz", kMFtz}, {"sat", kMSat}, {"approx", kMApprox},
    {"full", kMFull}, {"wide", kMWide}, {"hi", kMHi}, {"lo", kMLo}, {"uni", kMUni}, {"to", kMTo},
    {"cg", kMCg}, {"volatile", kMVolatile}, {"cc", kMCc}, {"aligned", kMAligned}};

constexpr const char* kIndirectCalls =
    "indirect calls (through a function pointer or a virtual function: call via a register with a "
    ".callprototype) are not supported by the PTX emulator yet; call the function directly";

class Parser {
 public:
  Parser(const std::string& text, const std::string& path, const OpcodeTable& table)
      : path_(path), table_(table), toks_(tokenize(text, path)) {
    mod_.path = path;
  }

  Module run() {
    while (peek().kind != Token::kEnd) top_level();
    return std::move(mod_);
  }

 private:
  const std::string& path_;
  const OpcodeTable& table_;
  std::vector<Token> toks_;
  size_t i_ = 0;
  Module mod_;
  Function* f_ = nullptr;
  std::unordered_map<std::string, int> regs_, syms_, labels_, globals_;
  int depth_ = 0;  // brace depth inside a function body (call sequences open scopes)
  // names an inner scope shadowed: (name, outer register or -1), restored at '}'
  std::vector<std::vector<std::pair<std::string, int>>> shadowed_;

  // --- token helpers ---
  const Token& peek(size_t k = 0) const { return toks_[std::min(i_ + k, toks_.size() - 1)]; }
  const Token& next() {
    const Token& t = toks_[i_];
    if (i_ + 1 < toks_.size()) ++i_;
    return t;
  }
  bool is(std::string_view s, size_t k = 0) const { return peek(k).kind != Token::kEnd && peek(k).text == s; }
  bool accept(std::string_view s) {
    if (!is(s)) return false;
    next();
    return true;
  }
  [[noreturn]] void fail(const Token& t, const std::string& msg) const {
    std::string tok = t.kind == Token::kEnd ? "end of file" : std::string(t.text);
    throw PtxError(path_, t.line, t.col, tok, msg);
  }
  const Token& expect(std::string_view s, const char* what) {
    if (!is(s)) fail(peek(), std::string("expected '") + std::string(s) + "' " + what);
    return next();
  }
  const Token& ident(const char* what) {
    if (peek().kind != Token::kIdent) fail(peek(), std::string("expected ") + what);
    return next();
  }
  uint64_t number(const char* what) {
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
  void skip_line() {
    uint32_t line = peek().line;
    while (peek().kind != Token::kEnd && peek().line == line) next();
  }
  void skip_to_semicolon() {
    while (peek().kind != Token::kEnd && !is(";")) next();
    expect(";", "to end the directive");
  }
  void skip_braces() {
    expect("{", "to open the section");
    int depth = 1;
    while (depth > 0) {
      if (peek().kind == Token::kEnd) fail(peek(), "unterminated '{'");
      if (is("{")) ++depth;
      if (is("}")) --depth;
      next();
    }
  }

  // --- top level ---
  void top_level() {
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

  void version() {
    const Token& v = next();
    mod_.version = std::string(v.text);
    mod_.isa = isa_version(v.text);
    if (v.kind != Token::kNumber || mod_.isa == 0)
      fail(v, "not a PTX ISA version (released versions: 1.0 to 9.0, e.g. .version 8.0)");
  }
  // .target sm_XX{, modifier}: the PTX ISA version must be one that accepts sm_XX.
  void target() {
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

  // [.align N] [.vN] .type name[dims] [= init] {, name...} ;
  struct VarHead {
    uint32_t align = 0;
    Ty ty = kTyNone;
    uint32_t vec = 1;
  };
  // `reg`: a .reg declaration (the only state space a .pred may live in).
  VarHead var_head(bool reg = false) {
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
    if (h.ty == kTyNone) fail(t, "unknown type");
    if (h.ty == kPred && !reg)
      fail(t, "a .pred variable must be declared in the .reg state space (PTX keeps predicates in registers only)");
    return h;
  }
  // name plus optional [N] dimensions; returns element count (0 for "[]").
  uint64_t var_dims(bool& unsized) {
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
  void initialiser(Symbol& s, Ty ty) {
    int bytes = ty_bytes(ty);
    int depth = 0;
    for (;;) {
      if (accept("{")) {
        ++depth;
        continue;
      }
      bool neg = accept("-");
      const Token& n = peek();
      if (n.kind == Token::kIdent) {
        bool func = false;
        for (const Function& g : mod_.funcs) func |= g.name == n.text;
        fail(n, func ? "function pointers (a variable initialised with a function's address) are not supported by "
                       "the PTX emulator yet: indirect calls cannot run"
                     : "address initialisers (a variable holding another variable's address) are not supported yet");
      }
      Operand o = immediate(neg);
      uint64_t bits = imm_bits(o, ty);
      for (int b = 0; b < bytes; ++b) s.init.push_back(uint8_t(bits >> (8 * b)));
      while (depth > 0 && accept("}")) --depth;
      if (depth == 0 || !accept(",")) break;
    }
    if (depth != 0) fail(peek(), "unbalanced '{' in initialiser");
    if (s.init.size() > s.size) fail(peek(), "initialiser larger than the variable");
  }
  // A declared variable's name, space, line, size and alignment (`unsized`:
  // declared as `name[]`).
  Symbol declared(const Token& nt, Space sp, const VarHead& h, bool& unsized) {
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
  uint64_t checked_size(const Token& at, uint64_t count, const VarHead& h) const {
    const uint64_t elem = uint64_t(ty_bytes(h.ty)) * h.vec;
    if (count > kMaxVariableBytes / elem)
      fail(at, "'" + std::string(at.text) + "' is " + std::to_string(count) + " x " + std::to_string(elem) +
                   " bytes, larger than 4 GiB (sizes are 32-bit)");
    return count * elem;
  }
  void module_var(bool is_extern) {
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
  std::vector<Symbol> shared_globals_;
  uint64_t const_bytes_ = 0;  // .const of the module so far (one 64 KiB bank)

  // --- functions ---
  void param_list(Function& fn, bool entry, std::vector<Param>* out) {
    expect("(", "to open the parameter list");
    if (accept(")")) return;
    do {
      expect(".param", "(a parameter declaration)");
      VarHead h = var_head();
      Param p;
      p.type = h.ty;
      // .ptr .global .align N after the type (pointer attributes)
      while (is(".ptr") || is(".global") || is(".shared") || is(".const") || is(".local") || is(".align")) {
        if (next().text == ".align") number("an alignment");
        p.pointer = true;
      }
      const Token& nt = ident("a parameter name");
      p.name = std::string(nt.text);
      bool unsized;
      p.size = uint32_t(checked_size(nt, var_dims(unsized), h));
      p.align = h.align ? h.align : uint32_t(ty_bytes(h.ty) * h.vec);
      if (entry) {
        const uint64_t offset = (uint64_t(fn.param_bytes) + p.align - 1) / p.align * p.align;
        const uint32_t limit = max_kernel_param_bytes(mod_.isa, mod_.sm);
        if (offset + p.size > limit)
          fail(nt, "kernel parameters reach " + std::to_string(offset + p.size) + " bytes, beyond the " +
                       std::to_string(limit) + " bytes of parameter space" +
                       (limit < 32764 ? " (32764 bytes need .target sm_70 or later and .version 8.1 or later)" : ""));
        p.offset = uint32_t(offset);
        fn.param_bytes = uint32_t(offset + p.size);
      }
      if (out) out->push_back(p);
    } while (accept(","));
    expect(")", "to close the parameter list");
  }
  void function() {
    bool entry = next().text == ".entry";
    Function fn;
    fn.entry = entry;
    std::vector<Param> rets;
    if (!entry && is("(")) param_list(fn, false, &rets);
    const Token& nt = ident("a function name");
    fn.name = std::string(nt.text);
    fn.line = nt.line;
    if (is("(")) param_list(fn, entry, &fn.params);
    while (!is("{") && !is(";")) {
      if (peek().kind == Token::kEnd) fail(peek(), "unterminated function header");
      next();  // .maxntid 256, 1, 1 / .reqntid / .minnctapersm / .noreturn / .pragma
    }
    if (accept(";")) {
      mod_.funcs.push_back(std::move(fn));
      return;
    }
    for (const Function& g : mod_.funcs)
      if (g.name == fn.name && g.defined) fail(nt, "function defined twice");
    mod_.funcs.push_back(std::move(fn));
    f_ = &mod_.funcs.back();
    f_->defined = true;
    body(rets);
    f_ = nullptr;
  }
  // Places `s` in its space; static .shared and .local stay within the
  // limits ptxas enforces (the error names the variable's declaration).
  void add_sym(Symbol s) {
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
  void body(const std::vector<Param>& rets) {
    regs_.clear();
    syms_.clear();
    labels_.clear();
    shadowed_.clear();
    for (const Symbol& g : mod_.globals) {
      syms_[g.name] = int(f_->syms.size());
      f_->syms.push_back(g);
    }
    for (const Symbol& s : shared_globals_) add_sym(s);
    f_->param_sym = int32_t(f_->syms.size());
    for (const Param& p : f_->params) {
      Symbol s;
      s.name = p.name;
      s.space = kSpParam;
      s.size = p.size;
      s.align = p.align;
      s.offset = p.offset;
      s.scratch = !f_->entry;
      add_sym(s);
    }
    f_->ret_sym = int32_t(f_->syms.size());
    f_->rets = rets;
    for (const Param& p : rets) {
      Symbol s;
      s.name = p.name;
      s.space = kSpParam;
      s.size = p.size;
      s.align = p.align;
      s.scratch = true;
      add_sym(s);
    }
    expect("{", "to open the function body");
    int& depth = depth_;
    depth = 1;
    while (depth > 0) {
      const Token& t = peek();
      if (t.kind == Token::kEnd) fail(t, "function body not closed (missing '}')");
      if (accept("{")) {
        ++depth;
        shadowed_.emplace_back();
      } else if (accept("}")) {
        --depth;
        if (!shadowed_.empty()) {
          for (auto it = shadowed_.back().rbegin(); it != shadowed_.back().rend(); ++it) {
            if (it->second < 0) regs_.erase(it->first);
            else regs_[it->first] = it->second;
          }
          shadowed_.pop_back();
        }
      } else if (t.text == ".loc" || t.text == ".file") {
        skip_line();
      } else if (t.text == ".pragma") {
        next(), skip_to_semicolon();
      } else if (t.text == ".reg") {
        reg_decl();
      } else if (t.text == ".local" || t.text == ".shared" || t.text == ".param" || t.text == ".const" ||
                 t.text == ".global") {
        local_var();
      } else if (t.kind == Token::kIdent && is(":", 1)) {
        if (is(".callprototype", 2)) fail(peek(2), kIndirectCalls);
        if (labels_.count(std::string(t.text))) fail(t, "label defined twice");
        labels_[std::string(t.text)] = int(f_->insts.size());
        next(), next();
      } else {
        instruction();
      }
    }
    resolve_labels();
    check_operands();
    check_types();
  }
  // Operand kinds per position, so the emulator never meets e.g. an
  // immediate destination or a register where an address belongs.
  void check_operands() {
    for (const Inst& in : f_->insts) {
      auto bad = [&](size_t k, const char* what) {
        const Operand& o = in.ops[k];
        std::string tok = o.kind == Operand::kReg ? f_->regs[size_t(o.reg)].name : o.name;
        throw PtxError(path_, in.line, o.col, tok.empty() ? in.spelling : tok,
                       "operand " + std::to_string(k + 1) + " of '" + in.spelling + "' must be " + what);
      };
      auto kind = [&](size_t k) { return in.ops[k].kind; };
      auto value_like = [&](size_t k) {
        auto c = kind(k);
        return c == Operand::kReg || c == Operand::kImm || c == Operand::kSpecial || c == Operand::kSym;
      };
      size_t n = in.ops.size(), first_src = 1;
      switch (in.op) {
        case Op::kBra:
          if (kind(0) != Operand::kLabel) bad(0, "a label");
          continue;
        case Op::kCall: case Op::kBar: case Op::kMembar: case Op::kFence: case Op::kPrefetch:
        case Op::kNanosleep: case Op::kRet: case Op::kExit: case Op::kTrap:
          continue;
        case Op::kLd: case Op::kLdu:
          if (kind(0) != Operand::kReg && kind(0) != Operand::kVec) bad(0, "a register or vector");
          if (kind(1) != Operand::kAddr) bad(1, "an address [..]");
          continue;
        case Op::kSt:
          if (kind(0) != Operand::kAddr) bad(0, "an address [..]");
          if (!value_like(1) && kind(1) != Operand::kVec) bad(1, "a register, vector or immediate");
          continue;
        case Op::kRed:
          if (kind(0) != Operand::kAddr) bad(0, "an address [..]");
          if (!value_like(1)) bad(1, "a register or immediate");
          continue;
        case Op::kAtom:
          if (kind(0) != Operand::kReg) bad(0, "a register");
          if (kind(1) != Operand::kAddr) bad(1, "an address [..]");
          if ((in.sub == kAtCas) != (n == 4)) bad(0, in.sub == kAtCas ? "followed by an address and two values (cas)"
                                                                     : "followed by an address and one value");
          for (size_t k = 2; k < n; ++k)
            if (!value_like(k)) bad(k, "a register or immediate");
          continue;
        case Op::kTex:
          if (kind(0) != Operand::kReg && kind(0) != Operand::kVec) bad(0, "a register or vector");
          if (kind(1) != Operand::kAddr) bad(1, "[texture, {coordinates}]");
          continue;
        case Op::kMov:
          if (kind(0) == Operand::kVec && kind(1) == Operand::kVec) bad(1, "a register when the destination is a vector");
          if (kind(0) != Operand::kReg && kind(0) != Operand::kVec) bad(0, "a register or vector");
          if (!value_like(1) && kind(1) != Operand::kVec) bad(1, "a register, immediate or vector");
          continue;
        default:
          break;
      }
      if (kind(0) != Operand::kReg) bad(0, "a register");
      for (size_t k = first_src; k < n; ++k)
        if (!value_like(k)) bad(k, "a register, immediate, special register or variable");
    }
  }
  void reg_decl() {
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
  void new_reg(const std::string& name, Ty ty, const Token& at) {
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
  void local_var() {
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

  // --- instructions ---
  void instruction() {
    Inst in;
    if (accept("@")) {
      bool neg = accept("!");
      const Token& p = ident("a predicate register");
      auto it = regs_.find(std::string(p.text));
      if (it == regs_.end()) fail(p, "undefined register");
      if (f_->regs[size_t(it->second)].type != kPred) fail(p, "guard is not a .pred register");
      in.pred = it->second;
      in.pred_neg = neg;
    }
    const Token& op = peek();
    if (op.kind != Token::kIdent || op.text[0] == '.' || op.text[0] == '%')
      fail(op, "expected an instruction");
    next();
    in.line = op.line;
    in.col = op.col;
    in.spelling = std::string(op.text);
    std::string_view s = op.text;
    size_t dot = s.find('.');
    std::string_view name = s.substr(0, dot);
    const OpcodeRow* row = table_.find(name);
    if (!row) fail(op, "unknown opcode '" + std::string(name) + "'");
    in.op = row->op;
    std::vector<Ty> types;
    while (dot != std::string_view::npos) {
      size_t nd = s.find('.', dot + 1);
      std::string_view m = s.substr(dot + 1, nd == std::string_view::npos ? nd : nd - dot - 1);
      dot = nd;
      if (!row->mods.count(std::string(m)))
        fail(op, "modifier '." + std::string(m) + "' is not allowed on '" + std::string(name) + "'");
      decode_mod(in, m, types);
    }
    if (!types.empty()) {
      in.type = in.op == Op::kCvt ? types.front() : types.back();
      if (types.size() > 1) in.type2 = in.op == Op::kCvt ? types[1] : types.front();
    }
    if (in.op == Op::kCvt && types.size() != 2) fail(op, "cvt needs a destination and a source type");
    if (row->typed && types.empty()) fail(op, "'" + std::string(name) + "' needs a type (" + type_list(*row) + ")");
    if (in.op == Op::kCall) {
      f_->calls = true;
      call_operands(in);
    } else {
      if (!is(";")) {
        do in.ops.push_back(operand());
        while (accept(","));
      }
    }
    if (!is(";")) fail(peek(), "expected ';' or ',' after an operand");
    if (in.ops.size() < row->min_ops || in.ops.size() > row->max_ops)
      fail(op, "'" + std::string(name) + "' takes " + std::to_string(row->min_ops) +
                   (row->max_ops != row->min_ops ? "-" + std::to_string(row->max_ops) : "") +
                   " operands, got " + std::to_string(in.ops.size()));
    next();
    f_->insts.push_back(std::move(in));
  }
  static std::string type_list(const OpcodeRow& row) {
    std::string s;
    for (int t = 1; t < kTyCount; ++t)
      if (row.mods.count(ty_name(Ty(t)))) s.append(s.empty() ? "." : ", .").append(ty_name(Ty(t)));
    return s;
  }
  void decode_mod(Inst& in, std::string_view m, std::vector<Ty>& types) {
    if (Ty t = ty_from(m); t != kTyNone) return types.push_back(t);
    if (m == "v2" || m == "v4") {
      in.vec = m == "v2" ? 2 : 4;
      return;
    }
    if (Space sp = space_from(m); sp != kSpNone && in.op != Op::kTex) {
      in.space = sp;
      return;
    }
    for (const ModName& b : kModBits)
      if (m == b.name) {
        in.mods |= b.bit;
        return;
      }
    if (in.op == Op::kSetp) {
      for (size_t c = 0; c < std::size(kCmpNames); ++c)
        if (m == kCmpNames[c]) {
          in.cmp = Cmp(c);
          return;
        }
      if (m == "and") in.sub = kBoolAnd;
      if (m == "or") in.sub = kBoolOr;
      if (m == "xor") in.sub = kBoolXor;
      return;
    }
    struct S {
      const char* n;
      SubOp s;
    };
    static constexpr S subs[] = {{"add", kAtAdd}, {"min", kAtMin}, {"max", kAtMax}, {"inc", kAtInc},
                                 {"dec", kAtDec}, {"cas", kAtCas}, {"exch", kAtExch}, {"and", kAtAnd},
                                 {"or", kAtOr}, {"xor", kAtXor}, {"up", kShUp}, {"down", kShDown},
                                 {"bfly", kShBfly}, {"idx", kShIdx}, {"all", kVoAll}, {"any", kVoAny},
                                 {"uni", kVoUni}, {"ballot", kVoBallot}};
    for (const S& x : subs)
      if (m == x.n) {
        if (in.op == Op::kVote && m == "uni") in.sub = kVoUni;
        else in.sub = x.s;
        return;
      }
    // other accepted modifiers (memory order, scope, cache hints) need no decoding
  }
  void call_operands(Inst& in) {
    // call{.uni} [(ret),] func [, (args)] [, prototype];
    if (accept("(")) {
      in.call_rets = param_names();
      expect(",", "after the return parameter list");
    }
    const Token& fn = ident("a function name");
    if (regs_.count(std::string(fn.text))) fail(fn, kIndirectCalls);
    Operand target;
    target.kind = Operand::kLabel;
    target.name = std::string(fn.text);
    target.col = fn.col;
    in.ops.push_back(target);
    bool found = false;
    for (const Function& g : mod_.funcs) found |= g.name == target.name;
    if (!found) fail(fn, "call to an undeclared function");
    if (accept(",")) {
      if (accept("(")) in.call_args = param_names();
      if (accept(",")) ident("a prototype");
    }
  }
  // "a, b, c)" of a call: .param variables of this function.
  std::vector<int32_t> param_names() {
    std::vector<int32_t> out;
    if (accept(")")) return out;
    do {
      const Token& t = ident("a .param variable");
      auto it = syms_.find(std::string(t.text));
      if (it == syms_.end() || f_->syms[size_t(it->second)].space != kSpParam)
        fail(t, "call arguments must be .param variables");
      out.push_back(it->second);
    } while (accept(","));
    expect(")", "to close the call's parameter list");
    return out;
  }
  Operand immediate(bool neg) {
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
  int reg_or_fail(const Token& t) {
    auto it = regs_.find(std::string(t.text));
    if (it == regs_.end()) fail(t, "undefined register");
    return it->second;
  }
  Operand operand() {
    const Token& t = peek();
    Operand o;
    o.col = t.col;
    if (accept("{")) {
      o.kind = Operand::kVec;
      do {
        if (o.nvec >= 4) fail(peek(), "vector operand with more than 4 elements");
        const Token& e = ident("a register");
        o.vec[o.nvec++] = e.text == "_" ? -1 : reg_or_fail(e);
      } while (accept(","));
      expect("}", "to close the vector operand");
      return o;
    }
    if (accept("[")) {
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
    o.kind = Operand::kLabel;  // resolved once the body is read
    o.name = n;
    o.imm = t.line;            // where, for the error if it stays unresolved
    return o;
  }
  void resolve_labels() {
    for (Inst& in : f_->insts)
      for (Operand& o : in.ops) {
        if (o.kind != Operand::kLabel || in.op == Op::kCall) continue;
        auto it = labels_.find(o.name);
        if (it == labels_.end())
          throw PtxError(path_, o.imm, o.col, o.name,
                         in.op == Op::kBra ? "undefined label" : "undefined register, variable or label");
        if (in.op != Op::kBra) throw PtxError(path_, in.line, o.col, o.name, "a label is not a value operand");
        o.imm = it->second;
      }
  }
  // Register operands must match the instruction type's size.
  void check_types() {
    for (const Inst& in : f_->insts) {
      bool checked = false;
      switch (in.op) {
        case Op::kAdd: case Op::kSub: case Op::kMin: case Op::kMax: case Op::kAnd: case Op::kOr:
        case Op::kXor: case Op::kNot: case Op::kNeg: case Op::kAbs: case Op::kFma: case Op::kDiv:
        case Op::kRem: case Op::kMov: case Op::kSqrt: case Op::kRcp:
          checked = true;
          break;
        case Op::kMul: case Op::kMad:
          checked = !(in.mods & kMWide);
          break;
        default:
          break;
      }
      if (!checked || in.type == kTyNone) continue;
      for (const Operand& o : in.ops) {
        if (o.kind != Operand::kReg) continue;
        Ty rt = f_->regs[size_t(o.reg)].type;
        bool ok = (rt == kPred) == (in.type == kPred) && (rt == kPred || ty_bytes(rt) == ty_bytes(in.type));
        if (!ok)
          throw PtxError(path_, in.line, o.col, f_->regs[size_t(o.reg)].name,
                         "type mismatch: register is ." + std::string(ty_name(rt)) + ", '" + in.spelling +
                             "' needs ." + ty_name(in.type));
      }
    }
  }
};

}  // namespace

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
