// CUDA arrays, 3-D copies, and texture and surface objects. An array is a
// device allocation of rows (width x element size, no padding) and slices;
// copies to and from it are row copies (copy.h). A texture object records
// the whole description the program gave (ptx::DeviceMemory::Texture),
// which the emulator's tex / tld4 sample and suld / sust access
// (ptx/texture_sampler.h).
#include <cstring>

#include "api.h"
#include "copy.h"

using accelsim::cudart::copy_rows;
using accelsim::cudart::CopyShape;
using accelsim::cudart::ret;
using accelsim::cudart::Rows;
using accelsim::cudart::Runtime;
using Texture = accelsim::ptx::DeviceMemory::Texture;

namespace {

struct Array {
  uint64_t dev = 0;
  cudaChannelFormatDesc desc{};
  size_t width = 0, height = 0, depth = 0;  // elements; height/depth 0 for fewer dimensions
  unsigned flags = 0;
  size_t elem() const { return size_t(desc.x + desc.y + desc.z + desc.w) / 8; }
  size_t pitch() const { return width * elem(); }
  size_t slice() const { return pitch() * std::max<size_t>(height, 1); }
  Rows rows(size_t x_bytes, size_t y, size_t z) const { return {dev + z * slice() + y * pitch() + x_bytes, pitch(), slice()}; }
};

Array* array(cudaArray_const_t a) { return reinterpret_cast<Array*>(const_cast<cudaArray*>(a)); }

cudaError_t make_array(Runtime& rt, cudaArray_t* out, const cudaChannelFormatDesc* desc, size_t w, size_t h, size_t d,
                       unsigned flags) {
  if (!out || !desc || w == 0) return ret(cudaErrorInvalidValue);
  auto* a = new Array();
  a->desc = *desc;
  a->width = w, a->height = h, a->depth = d, a->flags = flags;
  if (a->elem() == 0 || (desc->x + desc->y + desc->z + desc->w) % 8) {
    delete a;
    return ret(cudaErrorInvalidChannelDescriptor);
  }
  a->dev = rt.malloc_device(a->slice() * std::max<size_t>(d, 1));
  if (!a->dev) {
    delete a;
    return ret(cudaErrorMemoryAllocation);
  }
  *out = reinterpret_cast<cudaArray_t>(a);
  return cudaSuccess;
}

uint64_t addr(const void* p) { return reinterpret_cast<uint64_t>(p); }

// Channels and their width from a channel description (equal-width channels).
bool channel_layout(const cudaChannelFormatDesc& d, Texture& t) {
  const int bits[4] = {d.x, d.y, d.z, d.w};
  t.channels = 0;
  for (int b : bits)
    if (b) {
      if (t.channels && b != bits[0]) return false;
      ++t.channels;
    }
  if (!t.channels) return false;
  t.channel_bits = uint8_t(d.x);
  t.elem_bytes = uint32_t(t.channels * d.x / 8);
  t.kind = d.f == cudaChannelFormatKindFloat ? 'f' : d.f == cudaChannelFormatKindSigned ? 'i' : 'u';
  return d.f == cudaChannelFormatKindFloat || d.f == cudaChannelFormatKindSigned ||
         d.f == cudaChannelFormatKindUnsigned;
}

// The resource part of a texture or surface object.
cudaError_t describe_resource(const cudaResourceDesc& r, Texture& t) {
  if (r.resType == cudaResourceTypeLinear) {
    if (!channel_layout(r.res.linear.desc, t)) return cudaErrorInvalidChannelDescriptor;
    t.ptr = addr(r.res.linear.devPtr);
    t.count = r.res.linear.sizeInBytes / t.elem_bytes;
    t.shape = Texture::Shape::kLinear1d;
  } else if (r.resType == cudaResourceTypePitch2D) {
    if (!channel_layout(r.res.pitch2D.desc, t)) return cudaErrorInvalidChannelDescriptor;
    t.ptr = addr(r.res.pitch2D.devPtr);
    t.width = r.res.pitch2D.width, t.height = r.res.pitch2D.height, t.pitch = r.res.pitch2D.pitchInBytes;
    t.shape = Texture::Shape::kPitch2d;
  } else if (r.resType == cudaResourceTypeArray) {
    const Array* a = array(r.res.array.array);
    if (!a || !channel_layout(a->desc, t)) return cudaErrorInvalidChannelDescriptor;
    t.ptr = a->dev;
    t.width = a->width, t.height = a->height, t.depth = a->depth, t.pitch = a->pitch();
    t.shape = Texture::Shape::kArray;
    t.layered = (a->flags & cudaArrayLayered) != 0;
  } else {
    return cudaErrorInvalidValue;  // mipmapped arrays: not supported
  }
  return cudaSuccess;
}

}  // namespace

ACCELSIM_EXPORT cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}

ACCELSIM_EXPORT cudaError_t cudaMallocArray(cudaArray_t* a, const cudaChannelFormatDesc* desc, size_t width,
                                            size_t height, unsigned flags) {
  ACCELSIM_API_LOCK;
  return make_array(rt, a, desc, width, height, 0, flags);
}

ACCELSIM_EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t* a, const cudaChannelFormatDesc* desc, cudaExtent e,
                                              unsigned flags) {
  ACCELSIM_API_LOCK;
  return make_array(rt, a, desc, e.width, e.height, e.depth, flags);
}

ACCELSIM_EXPORT cudaError_t cudaFreeArray(cudaArray_t a) {
  ACCELSIM_API_LOCK;
  if (!a) return cudaSuccess;
  rt.synchronize();
  rt.free_device(array(a)->dev);
  delete array(a);
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned* flags,
                                             cudaArray_t a) {
  if (!a) return ret(cudaErrorInvalidResourceHandle);
  if (desc) *desc = array(a)->desc;
  if (extent) *extent = cudaExtent{array(a)->width, array(a)->height, array(a)->depth};
  if (flags) *flags = array(a)->flags;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t a) {
  if (!desc || !a) return ret(cudaErrorInvalidValue);
  *desc = array(a)->desc;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t w_off, size_t h_off, const void* src,
                                                size_t spitch, size_t width, size_t height, cudaMemcpyKind kind) {
  ACCELSIM_API_LOCK;
  if (!dst) return ret(cudaErrorInvalidResourceHandle);
  return copy_rows(rt, array(dst)->rows(w_off, h_off, 0), {addr(src), spitch, 0}, {width, height, 1}, kind, nullptr,
                   false);
}

ACCELSIM_EXPORT cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t w_off, size_t h_off, const void* src,
                                                     size_t spitch, size_t width, size_t height, cudaMemcpyKind kind,
                                                     cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  if (!dst) return ret(cudaErrorInvalidResourceHandle);
  return copy_rows(rt, array(dst)->rows(w_off, h_off, 0), {addr(src), spitch, 0}, {width, height, 1}, kind, stream,
                   true);
}

ACCELSIM_EXPORT cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t w_off,
                                                  size_t h_off, size_t width, size_t height, cudaMemcpyKind kind) {
  ACCELSIM_API_LOCK;
  if (!src) return ret(cudaErrorInvalidResourceHandle);
  return copy_rows(rt, {addr(dst), dpitch, 0}, array(src)->rows(w_off, h_off, 0), {width, height, 1}, kind, nullptr,
                   false);
}

ACCELSIM_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src, size_t w_off,
                                                       size_t h_off, size_t width, size_t height, cudaMemcpyKind kind,
                                                       cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  if (!src) return ret(cudaErrorInvalidResourceHandle);
  return copy_rows(rt, {addr(dst), dpitch, 0}, array(src)->rows(w_off, h_off, 0), {width, height, 1}, kind, stream,
                   true);
}

ACCELSIM_EXPORT cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wd, size_t hd, cudaArray_const_t src,
                                                     size_t ws, size_t hs, size_t width, size_t height,
                                                     cudaMemcpyKind) {
  ACCELSIM_API_LOCK;
  if (!dst || !src) return ret(cudaErrorInvalidResourceHandle);
  return copy_rows(rt, array(dst)->rows(wd, hd, 0), array(src)->rows(ws, hs, 0), {width, height, 1},
                   cudaMemcpyDeviceToDevice, nullptr, false);
}

// The 1-D forms (deprecated in CUDA, still used by older programs): `count`
// bytes from row h_off, column w_off on, wrapping into the next rows.
ACCELSIM_EXPORT cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t w_off, size_t h_off, const void* src,
                                              size_t count, cudaMemcpyKind kind) {
  ACCELSIM_API_LOCK;
  if (!dst) return ret(cudaErrorInvalidResourceHandle);
  return copy_rows(rt, array(dst)->rows(w_off, h_off, 0), {addr(src), count, count}, {count, 1, 1}, kind, nullptr,
                   false);
}

ACCELSIM_EXPORT cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t w_off, size_t h_off,
                                                size_t count, cudaMemcpyKind kind) {
  ACCELSIM_API_LOCK;
  if (!src) return ret(cudaErrorInvalidResourceHandle);
  return copy_rows(rt, {addr(dst), count, count}, array(src)->rows(w_off, h_off, 0), {count, 1, 1}, kind, nullptr,
                   false);
}

namespace {

// One side of a cudaMemcpy3D: an array at a position, or a pitched pointer.
Rows side(const cudaArray_t a, const cudaPitchedPtr& p, const cudaPos& pos, size_t* elem) {
  if (a) {
    *elem = array(a)->elem();
    return array(a)->rows(pos.x * *elem, pos.y, pos.z);
  }
  *elem = 1;
  const size_t slice = p.pitch * p.ysize;
  return {addr(p.ptr) + pos.z * slice + pos.y * p.pitch + pos.x, p.pitch, slice};
}

cudaError_t copy_3d(Runtime& rt, const cudaMemcpy3DParms* p, cudaStream_t stream, bool async) {
  if (!p || (p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr)) return ret(cudaErrorInvalidValue);
  size_t es = 1, ed = 1;
  const Rows src = side(p->srcArray, p->srcPtr, p->srcPos, &es), dst = side(p->dstArray, p->dstPtr, p->dstPos, &ed);
  // an array side gives the extent in elements, else it is in bytes
  const size_t elem = p->srcArray ? es : p->dstArray ? ed : 1;
  CopyShape shape{p->extent.width * elem, std::max<size_t>(p->extent.height, 1), std::max<size_t>(p->extent.depth, 1)};
  cudaMemcpyKind kind = p->kind;
  if (p->srcArray && p->dstArray) kind = cudaMemcpyDeviceToDevice;
  return copy_rows(rt, dst, src, shape, kind, stream, async);
}

}  // namespace

ACCELSIM_EXPORT cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  ACCELSIM_API_LOCK;
  return copy_3d(rt, p, nullptr, false);
}

ACCELSIM_EXPORT cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  return copy_3d(rt, p, stream, true);
}

ACCELSIM_EXPORT cudaError_t cudaCreateTextureObject(cudaTextureObject_t* obj, const cudaResourceDesc* res,
                                                    const cudaTextureDesc* tex, const cudaResourceViewDesc* view) {
  ACCELSIM_API_LOCK;
  if (!obj || !res || !tex) return ret(cudaErrorInvalidValue);
  if (view) return ret(cudaErrorNotSupported);
  Texture t;
  if (cudaError_t e = describe_resource(*res, t)) return ret(e);
  for (int d = 0; d < 3; ++d) t.address_mode[d] = uint8_t(tex->addressMode[d]);
  t.filter = uint8_t(tex->filterMode);
  t.normalized_coords = tex->normalizedCoords != 0;
  t.normalized_read = tex->readMode == cudaReadModeNormalizedFloat && t.kind != 'f';
  for (int c = 0; c < 4; ++c) t.border[c] = tex->borderColor[c];
  try {
    *obj = rt.memory().add_texture(t);
  } catch (const std::exception&) {
    return ret(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t obj) {
  ACCELSIM_API_LOCK;
  rt.synchronize();  // queued kernels may still read it
  rt.memory().remove_texture(obj);
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* obj, const cudaResourceDesc* res) {
  ACCELSIM_API_LOCK;
  if (!obj || !res) return ret(cudaErrorInvalidValue);
  // as CUDA: surfaces are CUDA arrays made with cudaArraySurfaceLoadStore
  if (res->resType != cudaResourceTypeArray || !res->res.array.array ||
      !(array(res->res.array.array)->flags & cudaArraySurfaceLoadStore))
    return ret(cudaErrorInvalidValue);
  Texture t;
  if (cudaError_t e = describe_resource(*res, t)) return ret(e);
  t.surface = true;
  try {
    *obj = rt.memory().add_texture(t);
  } catch (const std::exception&) {
    return ret(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t obj) { return cudaDestroyTextureObject(obj); }
