// The PTX parser's tensor-core instructions: the shape, matrix, layout and
// count modifiers of wmma.load / wmma.store / wmma.mma / mma / ldmatrix, and
// the fragment sizes their vector operands must have (the PTX ISA's
// fragment tables), so the emulator (exec_mma.cpp) meets only well-formed
// fragments.
#include <functional>

#include "ptx/parser.h"

namespace accelsim::ptx {

namespace {

bool is_mma(Op op) {
  return op == Op::kWmmaLoad || op == Op::kWmmaStore || op == Op::kWmmaMma || op == Op::kMma || op == Op::kLdmatrix;
}

// Registers of one fragment: 16-bit elements two to a register.
int regs_of(Ty t, int elements) { return t == kF16 ? elements / 2 : elements; }

}  // namespace

bool Parser::decode_mma_mod(Inst& in, std::string_view m) {
  if (!is_mma(in.op)) return false;
  MmaMods& x = in.mma;
  struct Shape {
    const char* name;
    MmaShape shape;
  };
  static constexpr Shape kShapes[] = {
      {"m16n16k16", kM16n16k16}, {"m16n8k16", kM16n8k16}, {"m16n8k8", kM16n8k8}, {"m8n8", kM8n8}};
  for (const Shape& s : kShapes)
    if (m == s.name) return x.shape = s.shape, true;
  if (m == "row" || m == "col") {
    if (m == "col") x.col = uint8_t(x.col | (1u << x.layouts));
    ++x.layouts;
    return true;
  }
  if (m.size() == 1 && m[0] >= 'a' && m[0] <= 'd') return x.matrix = uint8_t(m[0] - 'a'), true;
  if (m == "x1" || m == "x2" || m == "x4") return x.count = uint8_t(m[1] - '0'), true;
  if (m == "trans") return x.trans = true, true;
  return false;
}

// Each form's required modifiers and the register count of each vector
// operand, from the PTX ISA's fragment tables: wmma.m16n16k16's A and B
// fragments are 8 .f16x2 registers, C and D 8 .f32 or 4 .f16x2;
// mma.m16n8k16's A 4, B 2, C and D 4 .f32 or 2 .f16x2 (m16n8k8: A 2, B 1);
// ldmatrix one register per 8x8 matrix. `fail` reports the first violation.
namespace {

struct FormCheck {
  Inst& in;
  const std::vector<Ty>& types;
  const std::function<void(const std::string&)>& fail;

  void need(bool ok, const std::string& what) const {
    if (!ok) fail("'" + in.spelling + "': " + what);
  }
  void vec(size_t k, int regs, const char* name) const {
    need(in.ops[k].kind != Operand::kVec || in.ops[k].nvec == regs,
         std::string(name) + " must be a vector of " + std::to_string(regs) + " registers");
    need(in.ops[k].kind == Operand::kVec || regs == 1, std::string(name) + " must be a vector {..}");
  }
  bool f16_or_f32() const { return in.type == kF16 || in.type == kF32; }
};

void check_wmma_access(const FormCheck& c) {
  const MmaMods& x = c.in.mma;
  const bool load = c.in.op == Op::kWmmaLoad;
  c.need(x.shape == kM16n16k16 && x.layouts == 1, "needs .m16n16k16 and one layout (.row or .col)");
  c.need(load ? x.matrix != 3 : x.matrix == 3, load ? "loads .a, .b or .c" : "stores .d");
  c.need(x.matrix >= 2 ? c.f16_or_f32() : c.in.type == kF16, ".a / .b are .f16; .c / .d .f16 or .f32");
  c.vec(load ? 0 : 1, x.matrix >= 2 ? regs_of(c.in.type, 8) : 8, "the fragment");
}

void check_wmma_mma(const FormCheck& c) {
  const Inst& in = c.in;
  c.need(in.mma.shape == kM16n16k16 && in.mma.layouts == 2, "needs .m16n16k16 and two layouts (A's, B's)");
  c.need(c.types.size() == 2 && (in.type2 == kF16 || in.type2 == kF32) && c.f16_or_f32(),
         "takes .dtype.ctype, each .f16 or .f32 (f16 multiplicands)");
  c.vec(0, regs_of(in.type2, 8), "d"), c.vec(1, 8, "a"), c.vec(2, 8, "b"), c.vec(3, regs_of(in.type, 8), "c");
}

void check_mma(const FormCheck& c) {
  Inst& in = c.in;
  const MmaMods& x = in.mma;
  const std::vector<Ty>& t = c.types;
  c.need((x.shape == kM16n8k16 || x.shape == kM16n8k8) && x.layouts == 2 && x.col == 2,
         "needs .m16n8k16 or .m16n8k8 and .row.col");
  c.need(t.size() == 4 && t[1] == t[2] && (t[1] == kF16 || t[1] == kBF16) &&
             (in.type2 == kF16 || in.type2 == kF32) && c.f16_or_f32(),
         "takes .dtype.f16.f16.ctype (.dtype and .ctype each .f16 or .f32) or .f32.bf16.bf16.f32");
  in.mma.bf16 = t[1] == kBF16;
  c.need(!in.mma.bf16 || (in.type == kF32 && in.type2 == kF32), ".bf16 multiplicands accumulate in .f32");
  const bool k16 = x.shape == kM16n8k16;
  c.vec(0, regs_of(in.type2, 4), "d"), c.vec(1, k16 ? 4 : 2, "a"), c.vec(2, k16 ? 2 : 1, "b"),
      c.vec(3, regs_of(in.type, 4), "c");
}

void check_ldmatrix(const FormCheck& c) {
  const MmaMods& x = c.in.mma;
  c.need(x.shape == kM8n8 && x.count != 0 && c.in.type == kB16, "needs .m8n8, .x1, .x2 or .x4 and .b16");
  c.vec(0, x.count, "the destination");
}

}  // namespace

void Parser::mma_operands(Inst& in, const Token& op, const std::vector<Ty>& types) {
  if (!is_mma(in.op)) return;
  const std::function<void(const std::string&)> report = [&](const std::string& what) { fail(op, what); };
  const FormCheck c{in, types, report};
  switch (in.op) {
    case Op::kWmmaLoad: case Op::kWmmaStore: return check_wmma_access(c);
    case Op::kWmmaMma: return check_wmma_mma(c);
    case Op::kMma: return check_mma(c);
    default: return check_ldmatrix(c);
  }
}

}  // namespace accelsim::ptx
