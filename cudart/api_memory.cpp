// Allocation: device memory (the simulator's), managed and pinned host
// memory (host mappings the device addresses at the same address), and the
// queries about them.
#include <algorithm>
#include <cstring>

#include "api.h"

using accelsim::cudart::ret;
using accelsim::cudart::Runtime;

namespace {

constexpr size_t kPitchAlign = 512;             // cudaMallocPitch's row alignment (as on Volta)

uint64_t addr(const void* p) { return reinterpret_cast<uint64_t>(p); }

}  // namespace

ACCELSIM_EXPORT cudaError_t cudaMalloc(void** dev_ptr, size_t size) {
  ACCELSIM_API_LOCK;
  if (!dev_ptr) return ret(cudaErrorInvalidValue);
  const uint64_t p = rt.malloc_device(size);
  if (!p) return ret(cudaErrorMemoryAllocation);
  *dev_ptr = reinterpret_cast<void*>(p);
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaMallocPitch(void** dev_ptr, size_t* pitch, size_t width, size_t height) {
  ACCELSIM_API_LOCK;
  if (!dev_ptr || !pitch) return ret(cudaErrorInvalidValue);
  *pitch = (width + kPitchAlign - 1) / kPitchAlign * kPitchAlign;
  const uint64_t p = rt.malloc_device(*pitch * height);
  if (!p) return ret(cudaErrorMemoryAllocation);
  *dev_ptr = reinterpret_cast<void*>(p);
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaMalloc3D(cudaPitchedPtr* out, cudaExtent extent) {
  if (!out) return ret(cudaErrorInvalidValue);
  void* p = nullptr;
  size_t pitch = 0;
  const cudaError_t e = cudaMallocPitch(&p, &pitch, extent.width, extent.height * extent.depth);
  if (e == cudaSuccess) *out = cudaPitchedPtr{p, pitch, extent.width, extent.height};
  return e;
}

// cudaFree waits for the device (as CUDA's does): a queued kernel may still use the memory.
ACCELSIM_EXPORT cudaError_t cudaFree(void* dev_ptr) {
  ACCELSIM_API_LOCK;
  if (!dev_ptr) return cudaSuccess;
  rt.synchronize();
  if (rt.free_device(addr(dev_ptr)) || rt.free_mapped(dev_ptr)) return cudaSuccess;
  return ret(cudaErrorInvalidValue);
}

ACCELSIM_EXPORT cudaError_t cudaMallocManaged(void** dev_ptr, size_t size, unsigned /*flags*/) {
  ACCELSIM_API_LOCK;
  if (!dev_ptr || size == 0) return ret(cudaErrorInvalidValue);
  void* p = rt.malloc_mapped(size);
  if (!p) return ret(cudaErrorMemoryAllocation);
  *dev_ptr = p;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaHostAlloc(void** host_ptr, size_t size, unsigned /*flags*/) {
  ACCELSIM_API_LOCK;
  if (!host_ptr) return ret(cudaErrorInvalidValue);
  void* p = rt.malloc_mapped(size);
  if (!p) return ret(cudaErrorMemoryAllocation);
  *host_ptr = p;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaMallocHost(void** ptr, size_t size) { return cudaHostAlloc(ptr, size, 0); }

ACCELSIM_EXPORT cudaError_t cudaFreeHost(void* ptr) {
  ACCELSIM_API_LOCK;
  if (!ptr) return cudaSuccess;
  rt.synchronize();
  return rt.free_mapped(ptr) ? cudaSuccess : ret(cudaErrorInvalidValue);
}

// Pinned and managed memory is mapped: the device pointer is the host pointer.
ACCELSIM_EXPORT cudaError_t cudaHostGetDevicePointer(void** dev_ptr, void* host_ptr, unsigned /*flags*/) {
  ACCELSIM_API_LOCK;
  if (!dev_ptr || !rt.host().base_of(host_ptr)) return ret(cudaErrorInvalidValue);
  *dev_ptr = host_ptr;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaHostGetFlags(unsigned* flags, void* host_ptr) {
  ACCELSIM_API_LOCK;
  if (!flags || !rt.host().base_of(host_ptr)) return ret(cudaErrorInvalidValue);
  *flags = cudaHostAllocMapped;
  return cudaSuccess;
}

// Registering pageable memory changes nothing here: copies read and write
// host memory directly. (Kernels cannot address it: cudaHostGetDevicePointer
// refuses it.)
ACCELSIM_EXPORT cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned /*flags*/) {
  return ptr && size ? cudaSuccess : ret(cudaErrorInvalidValue);
}

ACCELSIM_EXPORT cudaError_t cudaHostUnregister(void* ptr) { return ptr ? cudaSuccess : ret(cudaErrorInvalidValue); }

ACCELSIM_EXPORT cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  ACCELSIM_API_LOCK;
  if (!free || !total) return ret(cudaErrorInvalidValue);
  *total = rt.device_bytes();
  *free = rt.device_bytes() - std::min(rt.device_bytes_in_use(), rt.device_bytes());
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attr, const void* ptr) {
  ACCELSIM_API_LOCK;
  if (!attr) return ret(cudaErrorInvalidValue);
  std::memset(attr, 0, sizeof *attr);
  attr->device = 0;
  if (rt.host().base_of(ptr)) {  // managed and pinned are both mapped at the host address
    attr->type = cudaMemoryTypeManaged;
    attr->devicePointer = const_cast<void*>(ptr);
    attr->hostPointer = const_cast<void*>(ptr);
  } else if (rt.device_addressable(addr(ptr), 1)) {
    attr->type = cudaMemoryTypeDevice;
    attr->devicePointer = const_cast<void*>(ptr);
  } else {
    attr->type = cudaMemoryTypeUnregistered;
    attr->hostPointer = const_cast<void*>(ptr);
  }
  return cudaSuccess;
}

// Migration hints: managed memory is one copy here, so they change nothing.
#if CUDART_VERSION >= 13000
ACCELSIM_EXPORT cudaError_t cudaMemPrefetchAsync(const void* p, size_t, struct cudaMemLocation, unsigned,
                                                 cudaStream_t) {
  return p ? cudaSuccess : ret(cudaErrorInvalidValue);
}
ACCELSIM_EXPORT cudaError_t cudaMemAdvise(const void* p, size_t, enum cudaMemoryAdvise, struct cudaMemLocation) {
  return p ? cudaSuccess : ret(cudaErrorInvalidValue);
}
#else
ACCELSIM_EXPORT cudaError_t cudaMemPrefetchAsync(const void* p, size_t, int, cudaStream_t) {
  return p ? cudaSuccess : ret(cudaErrorInvalidValue);
}
ACCELSIM_EXPORT cudaError_t cudaMemAdvise(const void* p, size_t, enum cudaMemoryAdvise, int) {
  return p ? cudaSuccess : ret(cudaErrorInvalidValue);
}
#endif
