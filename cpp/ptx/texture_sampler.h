// What tex and tld4 read from a texture object: coordinates to texels by
// the object's addressing mode, point or linear filtering with the weights
// in 1.8 fixed point (the CUDA programming guide's "Texture Fetching":
// 256 steps between texels, the fraction rounded to the nearest), and
// texels decoded to what the instruction returns: f32 (float and half
// channels, or 8/16-bit integers in the normalized-float read mode) or
// 32-bit integers. Kept apart from the emulator: a function of the texture
// description and device memory only.
#pragma once
#include <cstdint>
#include <string>

#include "ptx/device_memory.h"

namespace accelsim::ptx {

// A tex / tld4 / suld / sust geometry (its .1d, .2d, ... modifier).
enum class TexGeom : uint8_t { k1d, k2d, k3d, kA1d, kA2d };
// The coordinates the instruction names for it: x (.1d), x y (.2d), x y z _
// (.3d), layer x (.a1d), layer x y _ (.a2d).
int tex_coord_count(TexGeom g);
int tex_dims(TexGeom g);  // 1, 2 or 3 spatial dimensions
bool tex_layered(TexGeom g);
const char* tex_geom_name(TexGeom g);

// One lane's coordinates: floats or integers (texel indices) per dimension,
// and the layer of a layered texture.
struct TexCoords {
  bool integer = false;
  float f[3] = {0, 0, 0};
  int32_t i[3] = {0, 0, 0};
  int32_t layer = 0;
};

// suld / sust: where the `bytes`-byte access at byte x, row y and slice z
// (`xyz`; a layered surface's layer in `layer`) of surface `t` falls, by the
// out-of-range mode `mode` (0 .trap, 1 .clamp: the nearest location in the
// surface, 2 .zero: none, loads read 0, stores are dropped). False: no
// access (.zero). Throws Error naming the coordinates for a .trap access
// outside the surface and for an x that is not a multiple of `bytes`.
bool surface_address(const DeviceMemory& mem, const DeviceMemory::Texture& t, TexGeom g, int64_t xyz[3],
                     int64_t layer, uint32_t bytes, int mode, uint64_t& addr);
// Why instruction geometry `g` cannot access `t` as a surface; empty: it can.
std::string surface_mismatch(const DeviceMemory::Texture& t, TexGeom g);

class TextureSampler {
 public:
  using Texture = DeviceMemory::Texture;
  TextureSampler(const DeviceMemory& mem, const Texture& t, TexGeom g);

  // Why instruction geometry `g` reading `float_result` (else 32-bit
  // integers) cannot use texture `t`; empty when it can. `gather`: tld4.
  static std::string mismatch(const Texture& t, TexGeom g, bool float_result, bool gather);

  // tex: the four components (f32 bits or integers); returns the address
  // of the first texel read (the timing model's access), `t.ptr` for a
  // border read.
  uint64_t sample(const TexCoords& c, uint32_t out[4]) const;
  // tld4: component `comp` of the bilinear footprint's four texels, in
  // counter-clockwise order from the lower left: (i,j+1) (i+1,j+1) (i+1,j) (i,j).
  uint64_t gather(const TexCoords& c, int comp, uint32_t out[4]) const;

 private:
  const DeviceMemory& mem_;
  const Texture& t_;
  TexGeom g_;
  int dims_;
  int64_t size_[3];  // texels per dimension (1 beyond the geometry's)
  int64_t layers_;
  bool float_;       // the texture returns floats (float channels or normalized reads)

  // Index `i` of dimension d into the texture by its address mode; false:
  // outside (border).
  bool address(int d, int64_t& i) const;
  // Texel (x, y, z) of `layer` after addressing; false: the border colour.
  bool locate(const int64_t xyz[3], int64_t layer, uint64_t& addr) const;
  // The texel's four components as returned (border colour outside).
  void texel(bool inside, uint64_t addr, double v[4], uint32_t raw[4]) const;
  int64_t layer_index(const TexCoords& c) const;
  uint64_t point(const TexCoords& c, int64_t layer, uint32_t out[4]) const;  // point sampling
  // Texel-space coordinate of dimension d (normalized coordinates scaled).
  float texel_coord(const TexCoords& c, int d) const;
};

}  // namespace accelsim::ptx
