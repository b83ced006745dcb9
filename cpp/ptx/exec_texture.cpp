// tex: texture fetches through a texture object.
#include <string>

#include "ptx/emulator.h"
#include "ptx/lane.h"

namespace accelsim::ptx {

// tex.1d.v4.<elem>.s32 {d0..d3}, [texobj, {x}]: point sampling of linear
// memory (tex1Dfetch); out-of-range coordinates read 0 (border). A texture
// of c 32-bit channels fills components 0..c-1, the others read 0. Other
// texture objects (2-D, arrays, narrow channels, normalized reads) are
// refused, never read wrongly.
void CtaEmulator::texture(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const Operand& d = in.ops[0];
  const Operand& a = in.ops[1];
  for (uint32_t m = mask; m; m &= m - 1) {
    uint32_t l = uint32_t(__builtin_ctz(m));
    uint64_t handle = a.reg >= 0 ? reg(wp, a.reg, l) : 0;
    const DeviceMemory::Texture* t = L.mem->texture(handle);
    if (!t) fault(w, l, in, "texture handle " + std::to_string(handle) + " is not a texture object of this device");
    bool want_float = in.type2 == kF32;
    if (t->shape != DeviceMemory::Texture::Shape::kLinear1d || t->surface || t->normalized_read ||
        t->channel_bits != 32 || t->elem_bytes != 4u * t->channels)
      fault(w, l, in, "tex.1d reads texture objects over linear memory with 32-bit channels read as elements; "
                      "this one (2-D / array / surface / narrow or normalized channels) is not supported yet");
    if (want_float != (t->kind == 'f')) fault(w, l, in, "texture element type does not match the tex instruction");
    int32_t x = as<int32_t>(reg(wp, a.vec[0], l));
    uint32_t v[4] = {0, 0, 0, 0};
    uint64_t addr = t->ptr;
    if (x >= 0 && uint64_t(x) < t->count) {
      addr = t->ptr + uint64_t(x) * t->elem_bytes;
      L.mem->load(addr, v, t->elem_bytes);
    }
    for (int e = 0; e < d.nvec; ++e)
      if (d.vec[e] >= 0) reg(wp, d.vec[e], l) = v[e];
    if (d.kind == Operand::kReg) reg(wp, d.reg, l) = v[0];
    lane_addr_[l] = addr;
  }
  record(w, int32_t(&in - P.insts.data()), mask, in, isa::kMemTex);
}

}  // namespace accelsim::ptx
