// cudaMemcpy*, cudaMemset* and the symbol copies (linear and pitched; the
// CUDA-array forms are in api_array.cpp). All come down to copy.h.
#include "api.h"
#include "copy.h"

using accelsim::cudart::copy_1d;
using accelsim::cudart::copy_rows;
using accelsim::cudart::CopyShape;
using accelsim::cudart::fill_rows;
using accelsim::cudart::ret;
using accelsim::cudart::Rows;

namespace {

uint64_t addr(const void* p) { return reinterpret_cast<uint64_t>(p); }

// A symbol's device address plus `offset`, checked against its size.
cudaError_t symbol_range(accelsim::cudart::Runtime& rt, const void* symbol, size_t count, size_t offset,
                         uint64_t* out) {
  size_t size = 0;
  const uint64_t a = rt.variable_address(symbol, &size);
  if (!a) return ret(cudaErrorInvalidSymbol);
  if (offset > size || count > size - offset) return ret(cudaErrorInvalidValue);
  *out = a + offset;
  return cudaSuccess;
}

}  // namespace

ACCELSIM_EXPORT cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  ACCELSIM_API_LOCK;
  return copy_1d(rt, dst, src, count, kind, nullptr, false);
}

ACCELSIM_EXPORT cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                                            cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  return copy_1d(rt, dst, src, count, kind, stream, true);
}

ACCELSIM_EXPORT cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                         size_t height, cudaMemcpyKind kind) {
  ACCELSIM_API_LOCK;
  if (width > dpitch || width > spitch) return ret(cudaErrorInvalidPitchValue);
  return copy_rows(rt, {addr(dst), dpitch, 0}, {addr(src), spitch, 0}, {width, height, 1}, kind, nullptr, false);
}

ACCELSIM_EXPORT cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                                              size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  if (width > dpitch || width > spitch) return ret(cudaErrorInvalidPitchValue);
  return copy_rows(rt, {addr(dst), dpitch, 0}, {addr(src), spitch, 0}, {width, height, 1}, kind, stream, true);
}

ACCELSIM_EXPORT cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                                               cudaMemcpyKind kind) {
  ACCELSIM_API_LOCK;
  uint64_t a = 0;
  if (cudaError_t e = symbol_range(rt, symbol, count, offset, &a)) return e;
  if (kind == cudaMemcpyDefault) kind = cudaMemcpyHostToDevice;
  return copy_1d(rt, reinterpret_cast<void*>(a), src, count, kind, nullptr, false);
}

ACCELSIM_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                                    cudaMemcpyKind kind, cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  uint64_t a = 0;
  if (cudaError_t e = symbol_range(rt, symbol, count, offset, &a)) return e;
  if (kind == cudaMemcpyDefault) kind = cudaMemcpyHostToDevice;
  return copy_1d(rt, reinterpret_cast<void*>(a), src, count, kind, stream, true);
}

ACCELSIM_EXPORT cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                                 cudaMemcpyKind kind) {
  ACCELSIM_API_LOCK;
  uint64_t a = 0;
  if (cudaError_t e = symbol_range(rt, symbol, count, offset, &a)) return e;
  if (kind == cudaMemcpyDefault) kind = cudaMemcpyDeviceToHost;
  return copy_1d(rt, dst, reinterpret_cast<void*>(a), count, kind, nullptr, false);
}

ACCELSIM_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset,
                                                      cudaMemcpyKind kind, cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  uint64_t a = 0;
  if (cudaError_t e = symbol_range(rt, symbol, count, offset, &a)) return e;
  if (kind == cudaMemcpyDefault) kind = cudaMemcpyDeviceToHost;
  return copy_1d(rt, dst, reinterpret_cast<void*>(a), count, kind, stream, true);
}

ACCELSIM_EXPORT cudaError_t cudaGetSymbolAddress(void** dev_ptr, const void* symbol) {
  ACCELSIM_API_LOCK;
  if (!dev_ptr) return ret(cudaErrorInvalidValue);
  const uint64_t a = rt.variable_address(symbol);
  if (!a) return ret(cudaErrorInvalidSymbol);
  *dev_ptr = reinterpret_cast<void*>(a);
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
  ACCELSIM_API_LOCK;
  if (!size) return ret(cudaErrorInvalidValue);
  if (!rt.variable_address(symbol, size)) return ret(cudaErrorInvalidSymbol);
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaMemset(void* dev_ptr, int value, size_t count) {
  ACCELSIM_API_LOCK;
  return fill_rows(rt, {addr(dev_ptr), count, count}, {count, 1, 1}, value, nullptr, false);
}

ACCELSIM_EXPORT cudaError_t cudaMemsetAsync(void* dev_ptr, int value, size_t count, cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  return fill_rows(rt, {addr(dev_ptr), count, count}, {count, 1, 1}, value, stream, true);
}

ACCELSIM_EXPORT cudaError_t cudaMemset2D(void* dev_ptr, size_t pitch, int value, size_t width, size_t height) {
  ACCELSIM_API_LOCK;
  return fill_rows(rt, {addr(dev_ptr), pitch, 0}, {width, height, 1}, value, nullptr, false);
}

ACCELSIM_EXPORT cudaError_t cudaMemset2DAsync(void* dev_ptr, size_t pitch, int value, size_t width, size_t height,
                                              cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  return fill_rows(rt, {addr(dev_ptr), pitch, 0}, {width, height, 1}, value, stream, true);
}

ACCELSIM_EXPORT cudaError_t cudaMemset3D(cudaPitchedPtr p, int value, cudaExtent e) {
  ACCELSIM_API_LOCK;
  return fill_rows(rt, {addr(p.ptr), p.pitch, p.pitch * p.ysize}, {e.width, e.height, e.depth}, value, nullptr,
                   false);
}

ACCELSIM_EXPORT cudaError_t cudaMemset3DAsync(cudaPitchedPtr p, int value, cudaExtent e, cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  return fill_rows(rt, {addr(p.ptr), p.pitch, p.pitch * p.ysize}, {e.width, e.height, e.depth}, value, stream, true);
}
