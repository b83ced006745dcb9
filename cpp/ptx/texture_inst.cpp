#include "ptx/texture_inst.h"

#include <string_view>

#include "ptx/ptx_error.h"
#include "ptx/texture_sampler.h"

namespace accelsim::ptx {

namespace {

// The instruction's modifiers as written ("tex.2d.v4.f32.f32" -> 2d v4 f32 f32).
bool has_mod(const std::string& spelling, std::string_view mod) {
  size_t p = spelling.find('.');
  while (p != std::string::npos) {
    const size_t e = spelling.find('.', p + 1);
    if (std::string_view(spelling).substr(p + 1, e == std::string::npos ? e : e - p - 1) == mod) return true;
    p = e;
  }
  return false;
}

int first_mod(const std::string& spelling, std::initializer_list<std::string_view> words) {
  int k = 0;
  for (std::string_view w : words) {
    if (has_mod(spelling, w)) return k;
    ++k;
  }
  return -1;
}

}  // namespace

bool is_texture_inst(Op op) { return op == Op::kTex || op == Op::kTld4 || op == Op::kSuld || op == Op::kSust; }

namespace {

void prepare_fetch_inst(Inst& in, const std::string& path);

// suld.b.geom[.vec].bN.mode {d..}, [surf, {coordinates}] and sust.b.geom[.vec].bN.mode [surf, {..}], {a..}
void prepare_surface_inst(Inst& in, const std::string& path) {
  auto refuse = [&](const std::string& what) { throw PtxError(path, in.line, in.col, in.spelling, what); };
  if (!has_mod(in.spelling, "b")) refuse("needs .b (unformatted access; formatted .p surfaces are not supported)");
  if (in.type != kB8 && in.type != kB16 && in.type != kB32 && in.type != kB64)
    refuse("accesses .b8, .b16, .b32 or .b64 elements");
  const int mode = first_mod(in.spelling, {"trap", "clamp", "zero"});
  in.tex_mode = uint8_t(mode < 0 ? 0 : mode);  // .trap is the default
  const Operand& data = in.ops[in.op == Op::kSuld ? 0 : 1];
  const int n = data.kind == Operand::kVec ? data.nvec : 1;
  if (n != in.vec) refuse("names " + std::to_string(n) + " register(s) for a ." + (in.vec == 1 ? "scalar" : "v" +
                          std::to_string(in.vec)) + " access");
}

}  // namespace

void prepare_texture_inst(Inst& in, const std::string& path) {
  auto refuse = [&](const std::string& what) { throw PtxError(path, in.line, in.col, in.spelling, what); };
  const int g = first_mod(in.spelling, {"1d", "2d", "3d", "a1d", "a2d"});
  if (g < 0) refuse("needs a geometry (.1d, .2d, .3d, .a1d or .a2d)");
  in.geom = uint8_t(g);
  const bool surface = in.op == Op::kSuld || in.op == Op::kSust;
  const Operand& t = in.ops[in.op == Op::kSust ? 0 : 1];
  if (t.reg < 0 && t.sym < 0) refuse("needs a texture or surface: a handle register or a .texref / .surfref");
  if (t.nvec != tex_coord_count(TexGeom(g)))
    refuse(std::string("takes ") + std::to_string(tex_coord_count(TexGeom(g))) + " coordinate(s) for ." +
           tex_geom_name(TexGeom(g)) + ", not " + std::to_string(t.nvec));
  if (surface) return prepare_surface_inst(in, path);
  prepare_fetch_inst(in, path);
}

namespace {

// tex / tld4: result vector and types, tld4's component.
void prepare_fetch_inst(Inst& in, const std::string& path) {
  auto refuse = [&](const std::string& what) { throw PtxError(path, in.line, in.col, in.spelling, what); };
  if (in.ops.size() > 2) refuse("with offset or depth-compare operands is not supported by the PTX emulator yet");
  if (in.ops[0].kind != Operand::kVec || in.ops[0].nvec != 4) refuse("writes a vector of 4 registers");
  if (in.type2 != kF32 && in.type2 != kS32 && in.type2 != kU32)
    refuse("needs a result type (.f32, .s32 or .u32) and a coordinate type (.f32 or .s32)");
  if (in.type != kF32 && in.type != kS32) refuse("coordinates are .f32 or .s32");
  if (in.op == Op::kTld4) {
    const int c = first_mod(in.spelling, {"r", "g", "b", "a"});
    if (c < 0) refuse("needs the component it gathers (.r, .g, .b or .a)");
    if (in.type != kF32) refuse("gathers at .f32 coordinates");
    in.tex_mode = uint8_t(c);
  }
}

}  // namespace

}  // namespace accelsim::ptx
