// The PTX parser's checks once a function body is read: labels resolve,
// operand kinds follow the opcode's grammar row (ptx/opcodes.def), register
// sizes match the instruction type.
#include <algorithm>

#include "ptx/parser.h"

namespace accelsim::ptx {

void Parser::resolve_labels() {
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

namespace {

// Whether operand `o` fits grammar letter `k` (opcode_table.h), and what the
// letter asks for, for the error.
bool fits(char k, const Operand& o) {
  const bool value = o.kind == Operand::kReg || o.kind == Operand::kImm || o.kind == Operand::kSpecial ||
                     o.kind == Operand::kSym;
  switch (k) {
    case 'd': return o.kind == Operand::kReg;
    case 'D': return o.kind == Operand::kReg || o.kind == Operand::kVec;
    case 's': case 'u': return value;
    case 'S': return value || o.kind == Operand::kVec;
    case 'a': case 't': return o.kind == Operand::kAddr;
    case 'V': return o.kind == Operand::kVec;
    case 'l': return o.kind == Operand::kLabel;
    default: return true;  // '*'
  }
}
const char* wanted(char k) {
  switch (k) {
    case 'd': return "a register";
    case 'D': return "a register or vector";
    case 'S': return "a register, immediate, vector, special register or variable";
    case 'a': return "an address [..]";
    case 't': return "[texture, {coordinates}]";
    case 'l': return "a label";
    case 'V': return "a vector {..}";
    default: return "a register, immediate, special register or variable";
  }
}

}  // namespace

void Parser::check_operands() {
  for (const Inst& in : f_->insts) {
    auto bad = [&](size_t k, const char* what) {
      const Operand& o = in.ops[k];
      std::string tok = o.kind == Operand::kReg ? f_->regs[size_t(o.reg)].name : o.name;
      throw PtxError(path_, in.line, o.col, tok.empty() ? in.spelling : tok,
                     "operand " + std::to_string(k + 1) + " of '" + in.spelling + "' must be " + what);
    };
    const OperandGrammar& g = op_grammar(in.op);
    const size_t n = std::min<size_t>(in.ops.size(), g.max_ops);  // the count is checked as it is parsed
    for (size_t k = 0; k < n; ++k) {
      if (k > 0 && in.ops[0].kind == Operand::kVec && in.ops[k].kind == Operand::kVec && g.kind[k] != 'V')
        bad(k, "a register when the destination is a vector");
      if (!fits(g.kind[k], in.ops[k])) bad(k, wanted(g.kind[k]));
    }
    // the one count a modifier sets: atom.cas takes a compare value and a new value
    if (in.op == Op::kAtom && (in.sub == kAtCas) != (in.ops.size() == 4))
      bad(0, in.sub == kAtCas ? "followed by an address and two values (cas)" : "followed by an address and one value");
  }
}

// Register operands must match the instruction type's size.
void Parser::check_types() {
  for (const Inst& in : f_->insts) {
    // .wide: the destination is twice the sources' size
    const bool checked = op_grammar(in.op).sized && !(in.mods & kMWide);
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

}  // namespace accelsim::ptx
