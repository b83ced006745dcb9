// The PTX parser's tensor-core instructions: the shape, matrix, layout and
// count modifiers of wmma.load / wmma.store / wmma.mma / mma / ldmatrix /
// stmatrix, and
// the fragment sizes their vector operands must have (the PTX ISA's
// fragment tables), so the emulator (exec_mma.cpp) meets only well-formed
// fragments.
#include <algorithm>
#include <functional>

#include "ptx/mma_fragment.h"
#include "ptx/parser.h"

namespace accelsim::ptx {

namespace {

bool is_mma(Op op) {
  return op == Op::kWmmaLoad || op == Op::kWmmaStore || op == Op::kWmmaMma || op == Op::kMma || op == Op::kLdmatrix ||
         op == Op::kStmatrix;
}

}  // namespace

bool Parser::decode_mma_mod(Inst& in, std::string_view m) {
  if (!is_mma(in.op)) return false;
  MmaMods& x = in.mma;
  struct Shape {
    const char* name;
    MmaShape shape;
  };
  static constexpr Shape kShapes[] = {
      {"m16n16k16", kM16n16k16}, {"m16n16k8", kM16n16k8}, {"m32n8k16", kM32n8k16}, {"m8n32k16", kM8n32k16},
      {"m16n8k64", kM16n8k64},   {"m16n8k32", kM16n8k32}, {"m16n8k16", kM16n8k16}, {"m16n8k8", kM16n8k8},
      {"m16n8k4", kM16n8k4},     {"m8n8k32", kM8n8k32},   {"m8n8k16", kM8n8k16},   {"m8n8k4", kM8n8k4},
      {"m8n8", kM8n8}};
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
  if (m == "satfinite") return x.satfinite = true, true;
  return false;
}

// Each form's required modifiers and the register count of each vector
// operand, from the PTX ISA's fragment tables (sizes in mma_fragment.h);
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
  // d, a, b, c of mma / wmma.mma, sized by the shape and the four types
  void fragments() const {
    const MmaShape s = MmaShape(in.mma.shape);
    vec(0, frag_regs(s, 2, in.type2), "d"), vec(1, frag_regs(s, 0, in.mma.atype), "a"),
        vec(2, frag_regs(s, 1, in.mma.btype), "b"), vec(3, frag_regs(s, 2, in.type), "c");
  }
};

std::string dot(Ty t) { return std::string(".") + ty_name(t); }
std::string shape_name(MmaShape s) {
  const MmaDims d = mma_dims(s);
  return ".m" + std::to_string(d.m) + "n" + std::to_string(d.n) + "k" + std::to_string(d.k);
}
bool is_int(Ty t) { return t == kS8 || t == kU8 || t == kS4 || t == kU4; }

// The shapes of one list, for messages: ".m16n8k8 or .m16n8k4".
template <size_t N>
std::string shape_names(const MmaShape (&shapes)[N]) {
  std::vector<std::string> names;
  for (MmaShape s : shapes)
    if (s != kShapeNone) names.push_back(shape_name(s));
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out.empty() ? "no shape" : out;
}

template <size_t N>
bool has_shape(const MmaShape (&shapes)[N], uint8_t s) {
  return std::find(std::begin(shapes), std::end(shapes), MmaShape(s)) != std::end(shapes) && s != kShapeNone;
}

// One multiplicand type's forms: the shapes mma and wmma take it at, and its
// accumulator types.
struct MmaForm {
  Ty ab;
  MmaShape mma_shapes[3];
  MmaShape wmma_shapes[3];
  const char* accumulators;  // for messages
};
constexpr MmaForm kForms[] = {
    {kF16, {kM16n8k16, kM16n8k8, kM8n8k4}, {kM16n16k16, kM32n8k16, kM8n32k16}, ".f16 or .f32"},
    {kBF16, {kM16n8k16, kM16n8k8}, {kM16n16k16, kM32n8k16, kM8n32k16}, ".f32"},
    {kTF32, {kM16n8k8, kM16n8k4}, {kM16n16k8}, ".f32"},
    {kF64, {kM8n8k4}, {kM8n8k4}, ".f64"},
    {kS8, {kM16n8k32, kM16n8k16, kM8n8k16}, {kM16n16k16, kM32n8k16, kM8n32k16}, ".s32"},
    {kU8, {kM16n8k32, kM16n8k16, kM8n8k16}, {kM16n16k16, kM32n8k16, kM8n32k16}, ".s32"},
    {kS4, {kM16n8k64, kM16n8k32, kM8n8k32}, {}, ".s32"},
    {kU4, {kM16n8k64, kM16n8k32, kM8n8k32}, {}, ".s32"},
};
constexpr const char* kMultiplicands = ".f16, .bf16, .tf32, .f64, .s8, .u8, .s4 or .u4";

const MmaForm* form_of(Ty ab) {
  for (const MmaForm& f : kForms)
    if (f.ab == ab) return &f;
  return nullptr;
}

bool accumulator_ok(Ty ab, Ty t) {
  if (ab == kF16) return t == kF16 || t == kF32;
  return t == (is_int(ab) ? kS32 : ab == kF64 ? kF64 : kF32);
}

// The element type of a wmma.load / wmma.store fragment: A and B take a
// multiplicand type at its shape, C and D an accumulator type.
void check_wmma_type(const FormCheck& c) {
  const MmaMods& x = c.in.mma;
  const Ty t = c.in.type;
  if (x.matrix >= 2) {
    c.need(t == kF16 || t == kF32 || t == kS32 || t == kF64,
           dot(t) + " is not an accumulator type (.f16, .f32, .s32 or .f64)");
    c.need(x.shape != kM16n16k8 || t == kF32, ".m16n16k8 accumulators are .f32");
    c.need((x.shape == kM8n8k4) == (t == kF64), ".m8n8k4 accumulators are .f64, and .f64 ones are .m8n8k4");
    return;
  }
  const MmaForm* f = form_of(t);
  c.need(f != nullptr, dot(t) + " is not a multiplicand type (" + kMultiplicands + ")");
  c.need(has_shape(f->wmma_shapes, x.shape), dot(t) + " fragments take " + shape_names(f->wmma_shapes) + ", not " +
                                                 shape_name(MmaShape(x.shape)));
}

bool wmma_shape(uint8_t s) { return is_wmma_shape(MmaShape(s)) || s == kM8n8k4; }
constexpr const char* kWmmaShapes = ".m16n16k16, .m16n16k8, .m32n8k16, .m8n32k16 or .m8n8k4";

void check_wmma_access(const FormCheck& c) {
  const MmaMods& x = c.in.mma;
  const bool load = c.in.op == Op::kWmmaLoad;
  c.need(wmma_shape(x.shape) && x.layouts == 1, std::string("needs ") + kWmmaShapes + " and one layout (.row or .col)");
  c.need(load ? x.matrix != 3 : x.matrix == 3, load ? "loads .a, .b or .c" : "stores .d");
  check_wmma_type(c);
  c.vec(load ? 0 : 1, frag_regs(MmaShape(x.shape), std::min<int>(x.matrix, 2), c.in.type), "the fragment");
}

// The multiplicand and accumulator types of mma / wmma.mma at their shape;
// .satfinite only on integer forms, a rounding modifier only on f64 wmma.
void check_mma_types(const FormCheck& c, bool wmma) {
  Inst& in = c.in;
  const MmaShape s = MmaShape(in.mma.shape);
  const MmaForm* f = form_of(in.mma.atype);
  c.need(f != nullptr, dot(in.mma.atype) + " is not a multiplicand type (" + kMultiplicands + ")");
  const bool ints = is_int(in.mma.atype) && is_int(in.mma.btype) && (in.mma.atype == kS4 || in.mma.atype == kU4) ==
                                                                       (in.mma.btype == kS4 || in.mma.btype == kU4);
  c.need(in.mma.btype == in.mma.atype || (!wmma && ints),
         "A and B must have the same type (mma mixes signed and unsigned integers of one width only), not " +
             dot(in.mma.atype) + " and " + dot(in.mma.btype));
  const bool shape_ok = wmma ? has_shape(f->wmma_shapes, s) : has_shape(f->mma_shapes, s);
  c.need(shape_ok, dot(f->ab) + " multiplicands take " + shape_names(wmma ? f->wmma_shapes : f->mma_shapes) +
                       ", not " + shape_name(s));
  c.need(accumulator_ok(f->ab, in.type2) && accumulator_ok(f->ab, in.type),
         dot(f->ab) + " multiplicands accumulate in " + f->accumulators + ", not " + dot(in.type2) + " / " +
             dot(in.type));
  c.need(!in.mma.satfinite || is_int(f->ab), ".satfinite applies to integer multiplicands only");
  c.need(!(in.mods & kMRn) || (wmma && f->ab == kF64), ".rn applies to .f64 wmma.mma only");
}

// wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype (f16) or
// .dtype.atype.btype.ctype (bf16, tf32, s8, u8){.satfinite}, f64 {.rn}
void check_wmma_mma(const FormCheck& c) {
  Inst& in = c.in;
  c.need(wmma_shape(in.mma.shape) && in.mma.layouts == 2,
         std::string("needs ") + kWmmaShapes + " and two layouts (A's, B's)");
  c.need(c.types.size() == 2 || c.types.size() == 4,
         "takes .dtype.ctype (f16 multiplicands) or .dtype.atype.btype.ctype");
  in.mma.atype = c.types.size() == 4 ? c.types[1] : kF16;
  in.mma.btype = c.types.size() == 4 ? c.types[2] : kF16;
  check_mma_types(c, true);
  c.fragments();
}

// mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype; the
// quad-pair form (.m8n8k4 with .f16 multiplicands) takes either layout for
// A and for B
void check_mma(const FormCheck& c) {
  Inst& in = c.in;
  const MmaMods& x = in.mma;
  c.need(x.shape != kShapeNone && x.shape != kM8n8 && !is_wmma_shape(MmaShape(x.shape)),
         "needs a shape (.m16n8k4 to .m16n8k64, .m8n8k4 to .m8n8k32)");
  c.need(c.types.size() == 4, "takes .dtype.atype.btype.ctype");
  in.mma.atype = c.types[1], in.mma.btype = c.types[2];
  const bool any_layout = x.shape == kM8n8k4 && in.mma.atype == kF16;
  c.need(x.layouts == 2 && (any_layout || x.col == 2), any_layout ? "needs A's and B's layouts" : "needs .row.col");
  check_mma_types(c, false);
  c.fragments();
}

void check_ldmatrix(const FormCheck& c) {
  const MmaMods& x = c.in.mma;
  const bool load = c.in.op == Op::kLdmatrix;
  c.need(x.shape == kM8n8 && x.count != 0 && c.in.type == kB16, "needs .m8n8, .x1, .x2 or .x4 and .b16");
  c.vec(load ? 0 : 1, x.count, load ? "the destination" : "the source");
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
