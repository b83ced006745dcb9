#include "ptx/lowering_context.h"

#include <unordered_map>

#include "ptx/program.h"

namespace accelsim::ptx {

namespace {

bool imm_factor(const Inst& in) {
  return in.ops.size() == 3 && (in.ops[1].kind == Operand::kImm || in.ops[2].kind == Operand::kImm);
}
bool is_wide_product(const Inst& in) { return in.op == Op::kMul && (in.mods & kMWide) && imm_factor(in); }
bool is_shift_left(const Inst& in) { return in.op == Op::kShl && in.ops.size() == 3 && in.ops[2].kind == Operand::kImm; }
bool is_int_add(const Inst& in) { return in.op == Op::kAdd && !ty_float(in.type) && in.ops.size() == 3; }
bool is_add64(const Inst& in) { return is_int_add(in) && ty_bytes(in.type) == 8; }

// Per register: how often it is written and the instructions that read it.
struct DefUse {
  std::unordered_map<int32_t, int> defs;
  std::unordered_map<int32_t, int32_t> def_at;  // the (last) writer
  std::unordered_map<int32_t, std::vector<int32_t>> uses;

  explicit DefUse(const std::vector<Inst>& insts) {
    for (int32_t i = 0; i < int32_t(insts.size()); ++i) {
      const Inst& in = insts[size_t(i)];
      const size_t first_src = writes_reg(in.op) ? 1 : 0;
      for (size_t k = 0; k < in.ops.size(); ++k) {
        const Operand& o = in.ops[k];
        const bool dst = k < first_src;
        auto note = [&](int32_t r) {
          if (r < 0) return;
          if (dst) ++defs[r], def_at[r] = i;
          else uses[r].push_back(i);
        };
        if (o.kind == Operand::kReg || (o.kind == Operand::kAddr && !dst)) note(o.reg);
        if (o.kind == Operand::kVec || o.kind == Operand::kAddr)  // a texture operand's coordinates too
          for (int e = 0; e < o.nvec; ++e) note(o.vec[e]);
      }
      if (in.pred >= 0) uses[in.pred].push_back(i);
    }
  }
  // the one instruction writing `o`'s register, or -1
  int32_t single_def(const Operand& o) const {
    if (o.kind != Operand::kReg) return -1;
    auto it = defs.find(o.reg);
    return it != defs.end() && it->second == 1 ? def_at.at(o.reg) : -1;
  }
};

}  // namespace

std::vector<std::vector<std::string>> lowering_context(const std::vector<Inst>& insts) {
  // PTX from nvcc defines each virtual register once; a register defined
  // twice is left alone rather than guessed at
  const DefUse du(insts);
  std::vector<std::vector<std::string>> out(insts.size());
  for (size_t i = 0; i < insts.size(); ++i) {
    const Inst& in = insts[i];
    if (is_add64(in)) {
      for (int k : {1, 2}) {
        int32_t d = du.single_def(in.ops[size_t(k)]);
        if (d >= 0 && is_wide_product(insts[size_t(d)])) {
          out[i].emplace_back("madwide");
          break;
        }
      }
    }
    if (in.op == Op::kTex && in.type == kF32) out[i].emplace_back("fcoord");
    if (is_shift_left(in) && in.ops[0].kind == Operand::kReg && du.single_def(in.ops[0]) == int32_t(i)) {
      auto it = du.uses.find(in.ops[0].reg);
      bool all_adds = it != du.uses.end();
      if (all_adds)
        for (int32_t u : it->second) all_adds = all_adds && is_int_add(insts[size_t(u)]);
      if (all_adds) out[i].emplace_back("lea");
    }
  }
  return out;
}

}  // namespace accelsim::ptx

namespace accelsim::ptx {

void branches_to_exit(std::vector<Inst>& insts) {
  for (Inst& in : insts) {
    if (in.op != Op::kBra || in.ops.empty() || (in.mods & kMInFunc)) continue;
    const int64_t t = in.ops[0].imm;
    if (t < 0 || t >= int64_t(insts.size())) continue;
    const Inst& to = insts[size_t(t)];
    if (to.op != Op::kRet || to.pred >= 0 || (to.mods & kMInFunc)) continue;
    in.op = Op::kExit;  // keeps its guard: "@p bra L; ... L: ret" is "@P EXIT"
    in.spelling = "exit";
    in.ops.clear();
  }
}

}  // namespace accelsim::ptx
