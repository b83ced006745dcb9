// The PTX parser's instructions: guard, opcode and modifiers (checked against
// the opcode's row of configs/ptx/opcodes.txt), operands, call sequences.
#include "ptx/parser.h"

#include <algorithm>

namespace accelsim::ptx {

namespace {

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

}  // namespace

void Parser::instruction() {
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
  if (!row) return defer(op, "unknown opcode '" + std::string(name) + "'");
  in.op = row->op;
  std::vector<Ty> types;
  while (dot != std::string_view::npos) {
    size_t nd = s.find('.', dot + 1);
    std::string_view m = s.substr(dot + 1, nd == std::string_view::npos ? nd : nd - dot - 1);
    dot = nd;
    if (!row->mods.count(std::string(m)))
      return defer(op, "modifier '." + std::string(m) + "' is not allowed on '" + std::string(name) + "'");
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
  const OperandGrammar& g = op_grammar(in.op);
  if (in.ops.size() < g.min_ops || in.ops.size() > g.max_ops) {
    std::string msg = "'";
    msg.append(name).append("' takes ").append(std::to_string(g.min_ops));
    if (g.max_ops != g.min_ops) msg.append("-").append(std::to_string(g.max_ops));
    fail(op, msg.append(" operands, got ").append(std::to_string(in.ops.size())));
  }
  next();
  f_->insts.push_back(std::move(in));
}

// An opcode or modifier the opcode data lacks: the function keeps the first
// as its unsupported instruction (a launch that reaches it fails naming it,
// the module's other kernels run) and the statement is skipped to its ';'.
void Parser::defer(const Token& op, const std::string& msg) {
  if (f_->unsupported.detail.empty()) f_->unsupported = {op.line, op.col, std::string(op.text), msg};
  int depth = 0;  // vector operands are braced
  while (!is(";") || depth > 0) {
    if (peek().kind == Token::kEnd || (is("}") && depth == 0)) fail(peek(), "expected ';' to end the instruction");
    if (is("{")) ++depth;
    if (is("}")) --depth;
    next();
  }
  next();
}

std::string Parser::type_list(const OpcodeRow& row) {
  std::string s;
  for (int t = 1; t < kTyCount; ++t)
    if (row.mods.count(ty_name(Ty(t)))) s.append(s.empty() ? "." : ", .").append(ty_name(Ty(t)));
  return s;
}

void Parser::decode_mod(Inst& in, std::string_view m, std::vector<Ty>& types) {
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

void Parser::call_operands(Inst& in) {
  // call{.uni} [(ret),] func [, (args)] [, prototype];
  if (accept("(")) {
    in.call_rets = param_names();
    expect(",", "after the return parameter list");
  }
  const Token& fn = ident("a function name");
  Operand target;
  target.col = fn.col;
  target.name = std::string(fn.text);
  if (auto r = regs_.find(target.name); r != regs_.end()) {  // through a function pointer
    target.kind = Operand::kReg;
    target.reg = r->second;
  } else {
    target.kind = Operand::kLabel;
    bool found = false;
    for (const Function& g : mod_.funcs) found |= g.name == target.name;
    if (!found) fail(fn, "call to an undeclared function");
  }
  in.ops.push_back(target);
  bool prototype = false;
  if (accept(",")) {
    if (accept("(")) in.call_args = param_names();
    if (accept(",")) ident("a prototype"), prototype = true;
  }
  if (target.kind == Operand::kReg && !prototype)
    fail(fn, "a call through a register names its .callprototype (or .calltargets) last");
}

std::optional<uint64_t> Parser::function_address(std::string_view name) {
  bool declared = false;
  for (const Function& g : mod_.funcs) declared |= g.name == name;
  if (!declared) return std::nullopt;
  auto& taken = mod_.address_taken;
  size_t k = size_t(std::find(taken.begin(), taken.end(), name) - taken.begin());
  if (k == taken.size()) taken.emplace_back(name);
  return kFuncAddrBase + 16 * uint64_t(k);
}

// "a, b, c)" of a call: .param variables of this function.
std::vector<int32_t> Parser::param_names() {
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

}  // namespace accelsim::ptx
