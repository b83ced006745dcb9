// suld.b / sust.b: unformatted surface loads and stores (byte x, rows, slices
// or layers of a CUDA array; texture_sampler.h's surface_address).
#include <string>

#include "ptx/emulator.h"
#include "ptx/lane.h"
#include "ptx/texture_sampler.h"

namespace accelsim::ptx {

namespace {

// The lane's coordinates: x in bytes, y, z (rows, slices) and a layered
// geometry's layer, which comes first.
void surface_coords(const uint64_t* regs, const Operand& a, TexGeom g, uint32_t lane, int64_t xyz[3], int64_t& layer) {
  const int first = tex_layered(g) ? 1 : 0;
  for (int d = 0; d < tex_dims(g); ++d) xyz[d] = as<int32_t>(regs[size_t(a.vec[first + d]) * 32 + lane]);
  layer = first ? as<int32_t>(regs[size_t(a.vec[0]) * 32 + lane]) : 0;
}

}  // namespace

void CtaEmulator::surface(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const bool load = in.op == Op::kSuld;
  const Operand& a = in.ops[load ? 1 : 0];
  const TexGeom g = TexGeom(in.geom);
  const DeviceMemory::Texture* prev = nullptr;
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t l = uint32_t(__builtin_ctz(m));
    const uint64_t handle = a.sym >= 0 ? bound_handle(w, l, a, in) : reg(wp, a.reg, l);
    const DeviceMemory::Texture* t = L.mem->texture(handle);
    if (!t) fault(w, l, in, "surface handle " + std::to_string(handle) + " is not a surface object of this device");
    if (t != prev) {  // lanes usually share one object: check it once
      if (std::string why = surface_mismatch(*t, g); !why.empty()) fault(w, l, in, why);
      prev = t;
    }
    int64_t xyz[3] = {0, 0, 0}, layer = 0;
    surface_coords(wp.regs.data(), a, g, l, xyz, layer);
    uint64_t addr = t->ptr;
    bool inside = false;
    std::string error;
    try {
      inside = surface_address(*L.mem, *t, g, xyz, layer, ty_bytes(in.type) * in.vec, in.tex_mode, addr);
    } catch (const Error& e) {
      error = e.what();
    }
    if (!error.empty()) fault(w, l, in, error);
    surface_data(w, l, in, inside ? addr : 0);
    lane_addr_[l] = addr;
  }
  record(w, int32_t(&in - P.insts.data()), mask, in, 0);
}

// One lane's suld / sust data: in.vec elements of the instruction's size at
// `addr` (0: outside a .zero access: loads read 0, stores are dropped).
void CtaEmulator::surface_data(uint32_t w, uint32_t l, const Inst& in, uint64_t addr) {
  Warp& wp = warps_[w];
  const bool load = in.op == Op::kSuld;
  const Operand& data = in.ops[load ? 0 : 1];
  const uint32_t size = ty_bytes(in.type);
  for (int e = 0; e < in.vec; ++e) {
    const int32_t r = data.kind == Operand::kVec ? data.vec[e] : data.reg;
    uint64_t v = 0;
    if (load) {
      if (addr) L.mem->load(addr + uint64_t(e) * size, &v, size);
      if (r >= 0) reg(wp, r, l) = v;
    } else if (addr) {
      v = data.kind == Operand::kVec ? (r >= 0 ? reg(wp, r, l) : 0) : value(wp, w, data, l);
      L.mem->store(addr + uint64_t(e) * size, &v, size);
    }
  }
}

}  // namespace accelsim::ptx
