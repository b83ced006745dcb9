// The device as the program sees it: one GPU whose properties come from the
// simulated config (SM count, clocks, caches, occupancy limits), versions,
// and device-wide settings that do not change what is simulated.
#include <cstdio>
#include <cstring>
#include <string>

#include "api.h"

using accelsim::cudart::ret;
using accelsim::cudart::Runtime;

namespace {

void fill_props(const Runtime& rt, cudaDeviceProp& p) {
  const auto& c = rt.config();
  std::memset(&p, 0, sizeof p);
  std::snprintf(p.name, sizeof p.name, "accelsim %s (simulated)", c.name.c_str());
  p.totalGlobalMem = rt.device_bytes();  // the config's dram_capacity, as cudaMemGetInfo
  p.sharedMemPerBlock = std::min<size_t>(48 * 1024, size_t(c.shmem_per_cta));
  p.regsPerBlock = int(c.registers_per_cta);
  p.warpSize = int(c.warp_size);
  p.memPitch = INT32_MAX;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsDim[0] = p.maxThreadsDim[1] = 1024;
  p.maxThreadsDim[2] = 64;
  p.maxGridSize[0] = INT32_MAX;
  p.maxGridSize[1] = p.maxGridSize[2] = 65535;
  p.totalConstMem = 64 * 1024;
  p.major = int(c.sm_version / 10);
  p.minor = int(c.sm_version % 10);
  p.textureAlignment = 512;
  p.texturePitchAlignment = 32;
  p.multiProcessorCount = int(c.sm_count);
  p.canMapHostMemory = 1;
  p.maxTexture1D = 1 << 17;
  p.maxTexture2D[0] = 1 << 17;
  p.maxTexture2D[1] = 1 << 16;
  p.maxTexture3D[0] = p.maxTexture3D[1] = p.maxTexture3D[2] = 1 << 14;
  p.surfaceAlignment = 512;
  p.concurrentKernels = 1;
  p.asyncEngineCount = 2;  // one copy engine per direction, as simulated
  p.unifiedAddressing = 1;
  p.memoryBusWidth = int(c.memory_partitions * c.dram_bus_width * 8);
  p.l2CacheSize = int(c.l2_size);
  p.maxThreadsPerMultiProcessor = int(c.max_threads_per_sm);
  p.streamPrioritiesSupported = 1;
  p.globalL1CacheSupported = p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = size_t(c.shmem_size);
  p.regsPerMultiprocessor = int(c.registers_per_sm);
  p.managedMemory = 1;
  p.concurrentManagedAccess = 1;
  p.cooperativeLaunch = 1;
  p.sharedMemPerBlockOptin = size_t(c.shmem_per_cta);
  p.directManagedMemAccessFromHost = 1;
  p.maxBlocksPerMultiProcessor = int(c.max_ctas_per_sm);
  p.hostRegisterSupported = 1;
#if CUDART_VERSION < 13000
  p.clockRate = int(c.core_clock * 1000);  // kHz
  p.memoryClockRate = int(c.dram_clock * 1000);
  p.deviceOverlap = 1;
  p.computeMode = cudaComputeModeDefault;
#endif
}

}  // namespace

ACCELSIM_EXPORT cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return ret(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaGetDevice(int* device) {
  if (!device) return ret(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : ret(cudaErrorInvalidDevice); }

ACCELSIM_EXPORT cudaError_t cudaInitDevice(int device, unsigned, unsigned) { return cudaSetDevice(device); }

ACCELSIM_EXPORT cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp*) {
  if (!device) return ret(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaSetDeviceFlags(unsigned) { return cudaSuccess; }

ACCELSIM_EXPORT cudaError_t cudaGetDeviceFlags(unsigned* flags) {
  if (!flags) return ret(cudaErrorInvalidValue);
  *flags = cudaDeviceScheduleAuto | cudaDeviceMapHost;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  ACCELSIM_API_LOCK;
  if (!prop) return ret(cudaErrorInvalidValue);
  if (device != 0) return ret(cudaErrorInvalidDevice);
  fill_props(rt, *prop);
  return cudaSuccess;
}

namespace {

// cudaDeviceGetAttribute's answers: one row per attribute, from the
// properties (filled from the config) or a constant.
struct AttributeRow {
  cudaDeviceAttr attr;
  int (*value)(const cudaDeviceProp& p, const accelsim::config::GpuConfig& c);
};

const AttributeRow kAttributes[] = {
    {cudaDevAttrMaxThreadsPerBlock, [](const cudaDeviceProp& p, const auto&) { return p.maxThreadsPerBlock; }},
    {cudaDevAttrMaxBlockDimX, [](const cudaDeviceProp& p, const auto&) { return p.maxThreadsDim[0]; }},
    {cudaDevAttrMaxBlockDimY, [](const cudaDeviceProp& p, const auto&) { return p.maxThreadsDim[1]; }},
    {cudaDevAttrMaxBlockDimZ, [](const cudaDeviceProp& p, const auto&) { return p.maxThreadsDim[2]; }},
    {cudaDevAttrMaxGridDimX, [](const cudaDeviceProp& p, const auto&) { return p.maxGridSize[0]; }},
    {cudaDevAttrMaxGridDimY, [](const cudaDeviceProp& p, const auto&) { return p.maxGridSize[1]; }},
    {cudaDevAttrMaxGridDimZ, [](const cudaDeviceProp& p, const auto&) { return p.maxGridSize[2]; }},
    {cudaDevAttrMaxSharedMemoryPerBlock, [](const cudaDeviceProp& p, const auto&) { return int(p.sharedMemPerBlock); }},
    {cudaDevAttrTotalConstantMemory, [](const cudaDeviceProp& p, const auto&) { return int(p.totalConstMem); }},
    {cudaDevAttrWarpSize, [](const cudaDeviceProp& p, const auto&) { return p.warpSize; }},
    {cudaDevAttrMaxRegistersPerBlock, [](const cudaDeviceProp& p, const auto&) { return p.regsPerBlock; }},
    {cudaDevAttrClockRate, [](const cudaDeviceProp&, const auto& c) { return int(c.core_clock * 1000); }},
    {cudaDevAttrMemoryClockRate, [](const cudaDeviceProp&, const auto& c) { return int(c.dram_clock * 1000); }},
    {cudaDevAttrMultiProcessorCount, [](const cudaDeviceProp& p, const auto&) { return p.multiProcessorCount; }},
    {cudaDevAttrComputeCapabilityMajor, [](const cudaDeviceProp& p, const auto&) { return p.major; }},
    {cudaDevAttrComputeCapabilityMinor, [](const cudaDeviceProp& p, const auto&) { return p.minor; }},
    {cudaDevAttrL2CacheSize, [](const cudaDeviceProp& p, const auto&) { return p.l2CacheSize; }},
    {cudaDevAttrMaxThreadsPerMultiProcessor,
     [](const cudaDeviceProp& p, const auto&) { return p.maxThreadsPerMultiProcessor; }},
    {cudaDevAttrMaxSharedMemoryPerMultiprocessor,
     [](const cudaDeviceProp& p, const auto&) { return int(p.sharedMemPerMultiprocessor); }},
    {cudaDevAttrMaxRegistersPerMultiprocessor, [](const cudaDeviceProp& p, const auto&) { return p.regsPerMultiprocessor; }},
    {cudaDevAttrMaxSharedMemoryPerBlockOptin,
     [](const cudaDeviceProp& p, const auto&) { return int(p.sharedMemPerBlockOptin); }},
    {cudaDevAttrMaxBlocksPerMultiprocessor,
     [](const cudaDeviceProp& p, const auto&) { return p.maxBlocksPerMultiProcessor; }},
    {cudaDevAttrGlobalMemoryBusWidth, [](const cudaDeviceProp& p, const auto&) { return p.memoryBusWidth; }},
    {cudaDevAttrAsyncEngineCount, [](const cudaDeviceProp& p, const auto&) { return p.asyncEngineCount; }},
    {cudaDevAttrTextureAlignment, [](const cudaDeviceProp& p, const auto&) { return int(p.textureAlignment); }},
    {cudaDevAttrTexturePitchAlignment, [](const cudaDeviceProp& p, const auto&) { return int(p.texturePitchAlignment); }},
    {cudaDevAttrConcurrentKernels, [](const cudaDeviceProp&, const auto&) { return 1; }},
    {cudaDevAttrUnifiedAddressing, [](const cudaDeviceProp&, const auto&) { return 1; }},
    {cudaDevAttrManagedMemory, [](const cudaDeviceProp&, const auto&) { return 1; }},
    {cudaDevAttrConcurrentManagedAccess, [](const cudaDeviceProp&, const auto&) { return 1; }},
    {cudaDevAttrCanMapHostMemory, [](const cudaDeviceProp&, const auto&) { return 1; }},
    {cudaDevAttrCooperativeLaunch, [](const cudaDeviceProp&, const auto&) { return 1; }},
    {cudaDevAttrStreamPrioritiesSupported, [](const cudaDeviceProp&, const auto&) { return 1; }},
    {cudaDevAttrGlobalL1CacheSupported, [](const cudaDeviceProp&, const auto&) { return 1; }},
    {cudaDevAttrLocalL1CacheSupported, [](const cudaDeviceProp&, const auto&) { return 1; }},
    {cudaDevAttrIntegrated, [](const cudaDeviceProp&, const auto&) { return 0; }},
    {cudaDevAttrComputeMode, [](const cudaDeviceProp&, const auto&) { return 0; }},  // cudaComputeModeDefault
    {cudaDevAttrEccEnabled, [](const cudaDeviceProp&, const auto&) { return 0; }},
    {cudaDevAttrPciBusId, [](const cudaDeviceProp&, const auto&) { return 0; }},
    {cudaDevAttrPciDeviceId, [](const cudaDeviceProp&, const auto&) { return 0; }},
    {cudaDevAttrPciDomainId, [](const cudaDeviceProp&, const auto&) { return 0; }},
    {cudaDevAttrMemoryPoolsSupported, [](const cudaDeviceProp&, const auto&) { return 0; }},
    {cudaDevAttrKernelExecTimeout, [](const cudaDeviceProp&, const auto&) { return 0; }},
};

}  // namespace

ACCELSIM_EXPORT cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  ACCELSIM_API_LOCK;
  if (!value) return ret(cudaErrorInvalidValue);
  if (device != 0) return ret(cudaErrorInvalidDevice);
  cudaDeviceProp p;
  fill_props(rt, p);
  for (const AttributeRow& row : kAttributes)
    if (row.attr == attr) {
      *value = row.value(p, rt.config());
      return cudaSuccess;
    }
  rt.fatal("cudaDeviceGetAttribute: attribute " + std::to_string(int(attr)) +
           " is not implemented by the simulator's CUDA runtime", 2);
}

ACCELSIM_EXPORT cudaError_t cudaDriverGetVersion(int* v) {
  if (!v) return ret(cudaErrorInvalidValue);
  *v = CUDART_VERSION;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaRuntimeGetVersion(int* v) { return cudaDriverGetVersion(v); }

ACCELSIM_EXPORT cudaError_t cudaDeviceReset() {
  ACCELSIM_API_LOCK;
  rt.synchronize();  // the simulated GPU keeps its state: a reset is a synchronization here
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaThreadExit() { return cudaDeviceReset(); }

// Limits, cache and shared-memory preferences: accepted; what the simulator
// runs follows the config and each kernel's own needs.
ACCELSIM_EXPORT cudaError_t cudaDeviceSetLimit(cudaLimit, size_t) { return cudaSuccess; }

ACCELSIM_EXPORT cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  if (!value) return ret(cudaErrorInvalidValue);
  switch (limit) {
    case cudaLimitStackSize: *value = 1024; break;
    case cudaLimitPrintfFifoSize: *value = 1 << 20; break;
    case cudaLimitMallocHeapSize: *value = 8 << 20; break;
    default: *value = 0;
  }
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }

ACCELSIM_EXPORT cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* c) {
  if (!c) return ret(cudaErrorInvalidValue);
  *c = cudaFuncCachePreferNone;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaDeviceCanAccessPeer(int* can, int, int) {
  if (!can) return ret(cudaErrorInvalidValue);
  *can = 0;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) { return cudaSuccess; }
