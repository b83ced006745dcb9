// The PTX parser (internal to cpp/ptx; parse_module() in module.h is its
// entry point): recursive descent over the token list. Its parts, one file
// each: directives and the module level (parser.cpp), variables and
// registers (parser_vars.cpp), functions and bodies (parser_functions.cpp),
// instructions and modifiers (parser_insts.cpp), operands
// (parser_operands.cpp), the tensor-core instructions' shapes and fragment
// sizes (parser_mma.cpp), and the checks once a body is read
// (parser_checks.cpp: labels, operand kinds from the opcode's grammar row,
// register sizes).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ptx/lexer.h"
#include "ptx/module.h"
#include "ptx/opcode_table.h"
#include "ptx/ptx_error.h"

namespace accelsim::ptx {

class Parser {
 public:
  Parser(const std::string& text, const std::string& path, const OpcodeTable& table);
  Module run();

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
  std::vector<Symbol> shared_globals_;
  uint64_t const_bytes_ = 0;  // .const of the module so far (one 64 KiB bank)
  int vec_max_ = 4;           // registers a vector operand of the current instruction may hold

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
  uint64_t number(const char* what);
  // Tokens on the current token's line (directives without ';': .loc, .file).
  void skip_line();
  void skip_to_semicolon();
  void skip_braces();
  void defer(const Token& op, const std::string& msg);  // parser_insts.cpp

  // --- module level (parser.cpp) ---
  void top_level();
  void version();
  // .target sm_XX{, modifier}: the PTX ISA version must be one that accepts sm_XX.
  void target();

  // --- variables and registers (parser_vars.cpp) ---
  // [.align N] [.vN] .type name[dims] [= init] {, name...} ;
  struct VarHead {
    uint32_t align = 0;
    Ty ty = kTyNone;
    uint32_t vec = 1;
  };
  // `reg`: a .reg declaration (the only state space a .pred may live in).
  VarHead var_head(bool reg = false);
  // name plus optional [N] dimensions; returns element count (0 for "[]").
  uint64_t var_dims(bool& unsized);
  void initialiser(Symbol& s, Ty ty);
  // A declared variable's name, space, line, size and alignment (`unsized`:
  // declared as `name[]`).
  Symbol declared(const Token& nt, Space sp, const VarHead& h, bool& unsized);
  // count x element bytes, refused beyond 32 bits (it would wrap).
  uint64_t checked_size(const Token& at, uint64_t count, const VarHead& h) const;
  void module_var(bool is_extern);
  // Places `s` in its space; static .shared and .local stay within the
  // limits ptxas enforces (the error names the variable's declaration).
  void add_sym(Symbol s);
  void reg_decl();
  void new_reg(const std::string& name, Ty ty, const Token& at);
  void local_var();

  // --- functions (parser_functions.cpp) ---
  void param_list(Function& fn, bool entry, std::vector<Param>* out);
  void function();
  void body(const std::vector<Param>& rets);

  // --- instructions (parser_insts.cpp) ---
  void instruction();
  void cp_async_operands(Inst& in, const Token& op);
  void cvt_tf32_form(const Inst& in, const Token& op);
  static bool decode_mma_mod(Inst& in, std::string_view m);
  void mma_operands(Inst& in, const Token& op, const std::vector<Ty>& types);
  static std::string type_list(const OpcodeRow& row);
  void decode_mod(Inst& in, std::string_view m, std::vector<Ty>& types);
  void call_operands(Inst& in);
  // The value of function `name`'s address (kFuncAddrBase), or nullopt if
  // the module declares no such function.
  std::optional<uint64_t> function_address(std::string_view name);
  // "a, b, c)" of a call: .param variables of this function.
  std::vector<int32_t> param_names();

  // --- operands (parser_operands.cpp) ---
  Operand immediate(bool neg);
  int reg_or_fail(const Token& t);
  Operand operand();
  Operand vector_operand(Operand o);
  Operand address_operand(Operand o);
  Operand named_operand(const Token& t, Operand o);

  // --- checks once a body is read (parser_checks.cpp) ---
  void resolve_labels();
  // Operand kinds per position (the opcode's grammar row), so the emulator
  // never meets e.g. an immediate destination or a register where an
  // address belongs.
  void check_operands();
  // Register operands must match the instruction type's size.
  void check_types();
};

}  // namespace accelsim::ptx
