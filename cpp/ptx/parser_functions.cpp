// The PTX parser's functions: parameter lists, headers and bodies.
#include "ptx/isa_limits.h"
#include "ptx/parser.h"

namespace accelsim::ptx {

void Parser::param_list(Function& fn, bool entry, std::vector<Param>* out) {
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

void Parser::function() {
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

void Parser::body(const std::vector<Param>& rets) {
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
      if (is(".callprototype", 2)) {  // a call signature: the callee's own declaration is what calls check
        next(), next(), skip_to_semicolon();
        continue;
      }
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

}  // namespace accelsim::ptx
