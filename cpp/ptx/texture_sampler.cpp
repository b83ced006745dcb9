#include "ptx/texture_sampler.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "base/error.h"
#include "ptx/half.h"

namespace accelsim::ptx {

namespace {

using Texture = DeviceMemory::Texture;
enum AddressMode : uint8_t { kWrap = 0, kClamp = 1, kMirror = 2, kBorder = 3 };  // cudaTextureAddressMode

bool returns_float(const Texture& t) { return t.kind == 'f' || t.normalized_read; }

// The geometry the texture object has, in the words of the instructions.
TexGeom shape_geom(const Texture& t) {
  if (t.shape == Texture::Shape::kLinear1d) return TexGeom::k1d;
  if (t.shape == Texture::Shape::kPitch2d) return TexGeom::k2d;
  if (t.layered) return t.height ? TexGeom::kA2d : TexGeom::kA1d;
  return t.depth ? TexGeom::k3d : t.height ? TexGeom::k2d : TexGeom::k1d;
}

const char* describe(const Texture& t) {
  switch (t.shape) {
    case Texture::Shape::kLinear1d: return "over linear memory (1-D)";
    case Texture::Shape::kPitch2d: return "over pitched 2-D memory";
    default: break;
  }
  switch (shape_geom(t)) {
    case TexGeom::k1d: return "over a 1-D CUDA array";
    case TexGeom::k2d: return "over a 2-D CUDA array";
    case TexGeom::k3d: return "over a 3-D CUDA array";
    case TexGeom::kA1d: return "over a layered 1-D CUDA array";
    default: return "over a layered 2-D CUDA array";
  }
}

std::string channel_problem(const Texture& t) {
  const int b = t.channel_bits;
  if (b != 8 && b != 16 && b != 32) return "channels of " + std::to_string(b) + " bits (textures have 8, 16 or 32)";
  if (t.kind == 'f' && b == 8) return "8-bit float channels";
  if (t.normalized_read && b == 32) return "the normalized-float read mode on 32-bit integer channels (8 and 16 only)";
  return "";
}

// A texel-space coordinate as an index: floor, NaN as 0, and far values
// held where every address mode still gives the right texel class.
int64_t floor_index(float u) {
  if (std::isnan(u)) return 0;
  const float f = std::floor(u);
  return int64_t(std::clamp(f, -2147483648.0f, 2147483520.0f));
}

float channel_float(uint32_t x, const Texture& t) {
  const int b = t.channel_bits;
  if (t.kind == 'f') return b == 16 ? float(half::value(uint16_t(x), half::Fmt::F16)) : std::bit_cast<float>(x);
  if (t.kind == 'u') return float(double(x) / double((uint64_t(1) << b) - 1));
  const int32_t s = int32_t(x << (32 - b)) >> (32 - b);  // sign-extended (b < 32 here)
  return float(std::max(double(s) / double((int64_t(1) << (b - 1)) - 1), -1.0));
}

}  // namespace

int tex_coord_count(TexGeom g) {
  static constexpr int kCount[] = {1, 2, 4, 2, 4};
  return kCount[int(g)];
}
int tex_dims(TexGeom g) {
  static constexpr int kDims[] = {1, 2, 3, 1, 2};
  return kDims[int(g)];
}
bool tex_layered(TexGeom g) { return g == TexGeom::kA1d || g == TexGeom::kA2d; }
const char* tex_geom_name(TexGeom g) {
  static constexpr const char* kNames[] = {"1d", "2d", "3d", "a1d", "a2d"};
  return kNames[int(g)];
}

std::string surface_mismatch(const Texture& t, TexGeom g) {
  if (!t.surface) return "the handle is a texture object; suld and sust access surface objects";
  if (shape_geom(t) != g)
    return std::string("a .") + tex_geom_name(g) + " access needs a surface of that geometry; this surface object is " +
           describe(t);
  return "";
}

namespace {

bool surface_inside(TexGeom g, const int64_t xyz[3], int64_t layer, const int64_t limit[3]) {
  bool inside = limit[0] > 0;
  for (int d = 0; d < tex_dims(g); ++d) inside = inside && xyz[d] >= 0 && xyz[d] < limit[d];
  return inside && (!tex_layered(g) || (layer >= 0 && layer < limit[2]));
}

// An access outside the surface by its mode: false for .zero (no access),
// the nearest location for .clamp, an Error for .trap.
bool surface_outside(TexGeom g, int64_t xyz[3], int64_t& layer, const int64_t limit[3], uint32_t bytes, int mode) {
  if (mode == 2) return false;
  if (mode == 0 || limit[0] <= 0)
    throw Error("surface access at (" + std::to_string(xyz[0]) + ", " + std::to_string(xyz[1]) + ", " +
                std::to_string(tex_layered(g) ? layer : xyz[2]) + ") is outside the surface (.trap)");
  for (int d = 0; d < tex_dims(g); ++d) xyz[d] = std::clamp<int64_t>(xyz[d], 0, limit[d] - 1);
  xyz[0] -= xyz[0] % int64_t(bytes);
  layer = std::clamp<int64_t>(layer, 0, limit[2] - 1);
  return true;
}

}  // namespace

bool surface_address(const DeviceMemory& mem, const Texture& t, TexGeom g, int64_t xyz[3], int64_t layer,
                     uint32_t bytes, int mode, uint64_t& addr) {
  const int dims = tex_dims(g);
  const int64_t row = int64_t(t.width) * t.elem_bytes;
  const int64_t limit[3] = {row - int64_t(bytes) + 1, int64_t(std::max<uint64_t>(t.height, 1)),
                            int64_t(std::max<uint64_t>(t.depth, 1))};
  if (xyz[0] % int64_t(bytes))
    throw Error("surface x coordinate " + std::to_string(xyz[0]) + " (bytes) is not a multiple of the " +
                std::to_string(bytes) + "-byte access");
  if (!surface_inside(g, xyz, layer, limit) && !surface_outside(g, xyz, layer, limit, bytes, mode)) return false;
  const uint64_t slice = t.pitch * std::max<uint64_t>(t.height, 1);
  const int64_t z = tex_layered(g) ? layer : dims == 3 ? xyz[2] : 0, y = dims >= 2 ? xyz[1] : 0;
  addr = t.ptr + uint64_t(xyz[0]) + uint64_t(y) * t.pitch + uint64_t(z) * slice;
  if (!mem.valid(addr, bytes)) throw Error("the surface's memory was freed while the surface object lives");
  return true;
}

TextureSampler::TextureSampler(const DeviceMemory& mem, const Texture& t, TexGeom g)
    : mem_(mem), t_(t), g_(g), dims_(tex_dims(g)), layers_(1), float_(returns_float(t)) {
  size_[0] = int64_t(t.shape == Texture::Shape::kLinear1d ? t.count : t.width);
  size_[1] = int64_t(std::max<uint64_t>(t.height, 1));
  size_[2] = t.layered ? 1 : int64_t(std::max<uint64_t>(t.depth, 1));
  if (t.layered) layers_ = int64_t(std::max<uint64_t>(t.depth, 1));
}

std::string TextureSampler::mismatch(const Texture& t, TexGeom g, bool float_result, bool gather) {
  const std::string kind = gather ? "tld4" : "tex";
  if (t.surface) return "the handle is a surface object; " + kind + " reads texture objects";
  if (gather && g != TexGeom::k2d && g != TexGeom::kA2d) return "tld4 gathers from 2-D textures (.2d, .a2d)";
  if (shape_geom(t) != g)
    return std::string(kind) + "." + tex_geom_name(g) + " reads a texture of that geometry; this texture object is " +
           describe(t);
  if (std::string c = channel_problem(t); !c.empty()) return "the texture object has " + c;
  if (float_result != returns_float(t))
    return float_result ? "the texture returns integers (element read mode) but the instruction reads .f32"
                        : "the texture returns floats but the instruction reads 32-bit integers";
  if (t.filter == 1 && !returns_float(t))
    return "linear filtering needs a texture that returns floats (float channels or the normalized-float read mode)";
  return "";
}

bool TextureSampler::address(int d, int64_t& i) const {
  const int64_t n = size_[d];
  uint8_t mode = t_.address_mode[d];
  if (t_.shape == Texture::Shape::kLinear1d) mode = kBorder;  // tex1Dfetch: outside reads 0
  // wrap and mirror are defined on normalized coordinates; otherwise clamp
  else if (!t_.normalized_coords && (mode == kWrap || mode == kMirror)) mode = kClamp;
  switch (mode) {
    case kWrap: i = ((i % n) + n) % n; return true;
    case kMirror: {
      const int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
      i = m < n ? m : 2 * n - 1 - m;
      return true;
    }
    case kBorder: return i >= 0 && i < n;
    default: i = std::clamp<int64_t>(i, 0, n - 1); return true;
  }
}

bool TextureSampler::locate(const int64_t xyz[3], int64_t layer, uint64_t& addr) const {
  int64_t p[3] = {xyz[0], xyz[1], xyz[2]};
  for (int d = 0; d < dims_; ++d)
    if (!address(d, p[d])) return false;
  const uint64_t slice = t_.pitch * std::max<uint64_t>(t_.height, 1);
  addr = t_.ptr + uint64_t(p[0]) * t_.elem_bytes + uint64_t(p[1]) * t_.pitch + uint64_t(p[2] + layer) * slice;
  if (!mem_.valid(addr, t_.elem_bytes)) throw Error("the texture's memory was freed while the texture object lives");
  return true;
}

void TextureSampler::texel(bool inside, uint64_t addr, double v[4], uint32_t raw[4]) const {
  const bool zero_border = t_.shape == Texture::Shape::kLinear1d;
  uint8_t buf[16] = {};
  if (inside) mem_.load(addr, buf, t_.elem_bytes);
  const uint32_t bytes = t_.channel_bits / 8u;
  for (int c = 0; c < 4; ++c) {
    if (!inside) {  // the border colour (integer reads: its float's bits, as the driver API documents)
      const float b = zero_border ? 0.0f : t_.border[c];
      raw[c] = std::bit_cast<uint32_t>(b), v[c] = b;
      continue;
    }
    if (c >= t_.channels) {  // a channel the format lacks reads 0
      raw[c] = 0, v[c] = 0;
      continue;
    }
    uint32_t x = 0;
    std::memcpy(&x, buf + c * bytes, bytes);
    if (float_) {
      const float f = channel_float(x, t_);
      raw[c] = std::bit_cast<uint32_t>(f), v[c] = f;
    } else {
      if (t_.kind == 'i' && bytes < 4) x = uint32_t(int32_t(x << (32 - 8 * bytes)) >> (32 - 8 * bytes));
      raw[c] = x, v[c] = 0;
    }
  }
}

int64_t TextureSampler::layer_index(const TexCoords& c) const {
  return tex_layered(g_) ? std::clamp<int64_t>(c.layer, 0, layers_ - 1) : 0;
}

float TextureSampler::texel_coord(const TexCoords& c, int d) const {
  return t_.normalized_coords ? c.f[d] * float(size_[d]) : c.f[d];
}

uint64_t TextureSampler::point(const TexCoords& c, int64_t layer, uint32_t out[4]) const {
  int64_t xyz[3] = {0, 0, 0};
  for (int d = 0; d < dims_; ++d) xyz[d] = c.integer ? c.i[d] : floor_index(texel_coord(c, d));
  uint64_t addr = t_.ptr;
  double v[4];
  const bool inside = locate(xyz, layer, addr);
  texel(inside, addr, v, out);
  return inside ? addr : t_.ptr;
}

uint64_t TextureSampler::sample(const TexCoords& c, uint32_t out[4]) const {
  const int64_t layer = layer_index(c);
  double v[4];
  uint64_t addr = t_.ptr;
  if (c.integer || t_.filter != 1) return point(c, layer, out);  // integer coordinates are never filtered
  // linear: the 2^dims texels around the point, weights in 1.8 fixed point
  int64_t base[3] = {0, 0, 0};
  double a[3] = {0, 0, 0};
  for (int d = 0; d < dims_; ++d) {
    const float u = texel_coord(c, d) - 0.5f;
    base[d] = floor_index(u);
    a[d] = std::isfinite(u) ? std::nearbyint(double(u - std::floor(u)) * 256.0) / 256.0 : 0.0;
  }
  double acc[4] = {0, 0, 0, 0};
  uint64_t first = t_.ptr;
  for (int corner = 0; corner < (1 << dims_); ++corner) {
    int64_t xyz[3] = {0, 0, 0};
    double weight = 1;
    for (int d = 0; d < dims_; ++d) {
      const int bit = (corner >> d) & 1;
      xyz[d] = base[d] + bit;
      weight *= bit ? a[d] : 1 - a[d];
    }
    if (weight == 0) continue;  // a zero weight adds nothing (not even an infinite texel's NaN)
    const bool inside = locate(xyz, layer, addr);
    if (inside && first == t_.ptr) first = addr;
    uint32_t raw[4];
    texel(inside, addr, v, raw);
    for (int k = 0; k < 4; ++k) acc[k] += weight * v[k];
  }
  for (int k = 0; k < 4; ++k) out[k] = std::bit_cast<uint32_t>(float(acc[k]));
  return first;
}

uint64_t TextureSampler::gather(const TexCoords& c, int comp, uint32_t out[4]) const {
  const int64_t layer = layer_index(c);
  const int64_t i = floor_index(texel_coord(c, 0) - 0.5f), j = floor_index(texel_coord(c, 1) - 0.5f);
  const int64_t corners[4][2] = {{i, j + 1}, {i + 1, j + 1}, {i + 1, j}, {i, j}};
  uint64_t first = t_.ptr;
  for (int k = 0; k < 4; ++k) {
    const int64_t xyz[3] = {corners[k][0], corners[k][1], 0};
    uint64_t addr = t_.ptr;
    const bool inside = locate(xyz, layer, addr);
    if (inside && k == 3) first = addr;
    double v[4];
    uint32_t raw[4];
    texel(inside, addr, v, raw);
    out[k] = raw[comp];
  }
  return first;
}

}  // namespace accelsim::ptx
