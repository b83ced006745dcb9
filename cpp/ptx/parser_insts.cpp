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
    {"cg", kMCg}, {"volatile", kMVolatile}, {"cc", kMCc}, {"aligned", kMAligned}, {"shiftamt", kMShiftAmt}, {"rna", kMRna}};

// "ld.global.u32" -> {"global", "u32"}
std::vector<std::string_view> modifiers_of(std::string_view s) {
  std::vector<std::string_view> mods;
  for (size_t dot = s.find('.'); dot != std::string_view::npos;) {
    const size_t nd = s.find('.', dot + 1);
    mods.push_back(s.substr(dot + 1, nd == std::string_view::npos ? nd : nd - dot - 1));
    dot = nd;
  }
  return mods;
}

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
  const std::string_view name = op.text.substr(0, op.text.find('.'));
  const std::vector<std::string_view> mods = modifiers_of(op.text);
  const OpcodeRow* row = table_.find(name, mods);
  if (!row) return defer(op, "unknown opcode '" + std::string(name) + "'");
  in.op = row->op;
  std::vector<Ty> types;
  const std::string shown = row->variant.empty() ? std::string(name) : op_name(in.op);  // "ld", "bar.red"
  for (std::string_view m : mods) {
    if (!row->mods.count(std::string(m)))
      return defer(op, "modifier '." + std::string(m) + "' is not allowed on '" + shown + "'");
    decode_mod(in, m, types);
  }
  if (!types.empty()) {
    in.type = in.op == Op::kCvt ? types.front() : types.back();
    if (types.size() > 1) in.type2 = in.op == Op::kCvt ? types[1] : types.front();
  }
  if (in.op == Op::kCvt && types.size() != 2) fail(op, "cvt needs a destination and a source type");
  if (in.op == Op::kCvt) cvt_tf32_form(in, op);
  if (row->typed && types.empty()) fail(op, "'" + std::string(name) + "' needs a type (" + type_list(*row) + ")");
  if (in.op == Op::kCall) {
    f_->calls = true;
    call_operands(in);
  } else {
    // mma fragments are vectors of up to 8 registers; everything else takes 4
    const std::string_view letters(op_grammar(in.op).kind, OperandGrammar::kMax);
    vec_max_ = letters.find('V') != std::string_view::npos ? 8 : 4;
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
  if (in.op == Op::kCpAsync) cp_async_operands(in, op);
  mma_operands(in, op, types);
  next();
  f_->insts.push_back(std::move(in));
}

// cvt to .tf32 (a tensor-core multiplicand: an f32 rounded to 10 mantissa
// bits) is cvt.rna.tf32.f32 d, a, as nvcc emits it for sm_80 (sm_90's .rn /
// .rz / .relu / .satfinite forms are refused by name); .rna is that
// conversion's alone.
void Parser::cvt_tf32_form(const Inst& in, const Token& op) {
  const uint32_t round = in.mods & (kMRna | kMRn | kMRz | kMRm | kMRp | kMRni | kMRzi | kMRmi | kMRpi);
  const bool tf32 = in.type == kTF32 || in.type2 == kTF32;
  if (!tf32 && !(round & kMRna)) return;
  if (!tf32) fail(op, "'" + in.spelling + "': .rna rounds only to .tf32 (cvt.rna.tf32.f32)");
  if (in.type != kTF32 || in.type2 != kF32) fail(op, "'" + in.spelling + "': .tf32 converts only from .f32 (cvt.rna.tf32.f32)");
  if (round != kMRna) fail(op, "'" + in.spelling + "': cvt to .tf32 is supported with .rna (cvt.rna.tf32.f32) only");
  if (in.mods & (kMFtz | kMSat)) fail(op, "'" + in.spelling + "': cvt to .tf32 takes no .ftz or .sat");
}

// cp.async [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}:
// cp-size is 4, 8 or 16 (.cg: 16); a .pred fourth operand is ignore-src; the
// cache policy of .L2::cache_hint is only a hint and is dropped.
void Parser::cp_async_operands(Inst& in, const Token& op) {
  if (in.spelling.find(".L2::cache_hint") != std::string::npos) {
    if (in.ops.size() < 4) fail(op, "cp.async.L2::cache_hint needs a cache-policy operand");
    in.ops.pop_back();
  }
  if (in.ops.size() > 4) fail(op, "cp.async takes [dst], [src], cp-size and an optional src-size or ignore-src");
  const Operand& n = in.ops[2];
  if (n.kind != Operand::kImm || (n.imm != 4 && n.imm != 8 && n.imm != 16))
    fail(op, "cp.async's cp-size (operand 3) must be 4, 8 or 16");
  if ((in.mods & kMCg) && n.imm != 16) fail(op, "cp.async.cg copies 16 bytes (cp-size 16)");
  if (in.ops.size() == 4 && in.ops[3].kind == Operand::kReg && f_->regs[size_t(in.ops[3].reg)].type == kPred)
    in.mods |= kMIgnoreSrc;
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
  if (decode_mma_mod(in, m)) return;
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
                               {"uni", kVoUni}, {"ballot", kVoBallot}, {"popc", kRedPopc}};
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
