// tex and tld4: texture fetches through a texture object (the sampling is
// ptx/texture_sampler.h's).
#include <optional>
#include <string>

#include "ptx/emulator.h"
#include "ptx/lane.h"
#include "ptx/texture_sampler.h"

namespace accelsim::ptx {

namespace {

// The lane's coordinates: a layered geometry's first one is the layer.
TexCoords tex_coords(const uint64_t* regs, const Operand& a, TexGeom g, bool integer, uint32_t lane) {
  TexCoords c;
  c.integer = integer;
  const int first = tex_layered(g) ? 1 : 0;
  auto at = [&](int k) { return regs[size_t(a.vec[k]) * 32 + lane]; };
  if (first) c.layer = as<int32_t>(at(0));
  for (int d = 0; d < tex_dims(g); ++d) {
    const uint64_t v = at(first + d);
    c.f[d] = as<float>(v);
    c.i[d] = as<int32_t>(v);
  }
  return c;
}

}  // namespace

// A module-scope .texref / .surfref (or .param one) holds the handle the
// host bound to it; unbound, it is 0, which names no object.
uint64_t CtaEmulator::bound_handle(uint32_t w, uint32_t lane, const Operand& a, const Inst& in) {
  const Symbol& s = P.syms[size_t(a.sym)];
  const uint64_t h = load(w, lane, s.space, sym_addr_[size_t(a.sym)], 8, in);
  if (!h) fault(w, lane, in, "the reference '" + s.name + "' is bound to no texture or surface object "
                             "(bind one from the host: Module.bind_texture)");
  return h;
}

// tex.geom.v4.dtype.ctype {d0..d3}, [texobj, {coordinates}] and
// tld4.comp.2d.v4.dtype.f32: per lane, the texture object the handle names
// (an unknown handle, or one whose geometry or element type does not fit
// the instruction, is a fault naming why), sampled or gathered.
void CtaEmulator::texture(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const Operand& d = in.ops[0];
  const Operand& a = in.ops[1];
  const TexGeom g = TexGeom(in.geom);
  const bool gather = in.op == Op::kTld4, float_result = in.type2 == kF32;
  const DeviceMemory::Texture* prev = nullptr;
  std::optional<TextureSampler> s;
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t l = uint32_t(__builtin_ctz(m));
    const uint64_t handle = a.sym >= 0 ? bound_handle(w, l, a, in) : reg(wp, a.reg, l);
    const DeviceMemory::Texture* t = L.mem->texture(handle);
    if (!t) fault(w, l, in, "texture handle " + std::to_string(handle) + " is not a texture object of this device");
    if (t != prev) {  // lanes usually share one object: check it and set its sampler up once
      if (std::string why = TextureSampler::mismatch(*t, g, float_result, gather); !why.empty()) fault(w, l, in, why);
      s.emplace(*L.mem, *t, g);
      prev = t;
    }
    const TexCoords c = tex_coords(wp.regs.data(), a, g, in.type == kS32, l);
    uint32_t v[4];
    std::string error;
    try {
      lane_addr_[l] = gather ? s->gather(c, in.tex_mode, v) : s->sample(c, v);
    } catch (const Error& e) {
      error = e.what();
    }
    if (!error.empty()) fault(w, l, in, error);
    for (int e = 0; e < 4; ++e)
      if (d.vec[e] >= 0) reg(wp, d.vec[e], l) = v[e];
  }
  record(w, int32_t(&in - P.insts.data()), mask, in, isa::kMemTex);
}

}  // namespace accelsim::ptx
