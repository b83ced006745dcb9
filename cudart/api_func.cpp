// Kernel attributes and the occupancy API. Registers per thread are the
// launcher's setting (PTX registers are virtual; default 32), shared and
// local memory the PTX's; occupancy is the simulator's own calculation
// (sim/occupancy.h), so what the program is told is what the run uses.
#include <algorithm>
#include <cstring>

#include "api.h"
#include "sim/occupancy.h"

using accelsim::cudart::Kernel;
using accelsim::cudart::ret;
using accelsim::cudart::Runtime;

namespace {

uint32_t static_shared(const accelsim::ptx::Function& fn) { return fn.shared_bytes; }

// CTAs of `k` per SM for `block_threads` threads and `dyn_shared` bytes (0 when one does not fit).
int ctas_per_sm(Runtime& rt, Kernel& k, int block_threads, size_t dyn_shared) {
  const auto& fn = rt.function(k);
  accelsim::trace::KernelInfo info;
  info.name = k.name;
  info.block = {uint32_t(block_threads), 1, 1};
  info.nregs = rt.regs_per_thread();
  info.shmem_bytes = uint32_t(static_shared(fn) + dyn_shared);
  try {
    return int(accelsim::sim::compute_occupancy(accelsim::sim::occupancy_params(rt.config()), info).ctas_per_sm);
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

ACCELSIM_EXPORT cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  ACCELSIM_API_LOCK;
  Kernel* k = rt.kernel(func);
  if (!attr) return ret(cudaErrorInvalidValue);
  if (!k) return ret(cudaErrorInvalidDeviceFunction);
  const auto& fn = rt.function(*k);
  std::memset(attr, 0, sizeof *attr);
  attr->sharedSizeBytes = static_shared(fn);
  attr->localSizeBytes = fn.local_bytes;
  attr->numRegs = int(rt.regs_per_thread());
  const auto& c = rt.config();
  attr->maxThreadsPerBlock =
      int(std::min<int64_t>(1024, c.registers_per_cta / std::max<uint32_t>(1, rt.regs_per_thread()) / 32 * 32));
  attr->maxDynamicSharedSizeBytes = k->max_dynamic_shared;
  attr->preferredShmemCarveout = k->carveout;
  const auto& m = *k->fatbin->module;
  attr->ptxVersion = m.version.empty() ? 0 : std::atoi(m.version.c_str()) * 10 + (m.version.size() > 2 ? m.version[2] - '0' : 0);
  attr->binaryVersion = int(c.sm_version);
  for (const auto& g : m.globals)
    if (g.space == accelsim::ptx::kSpConst) attr->constSizeBytes += g.size;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  ACCELSIM_API_LOCK;
  Kernel* k = rt.kernel(func);
  if (!k) return ret(cudaErrorInvalidDeviceFunction);
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || value > rt.config().shmem_per_cta) return ret(cudaErrorInvalidValue);
    k->max_dynamic_shared = value;
  } else if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
    k->carveout = value;  // the simulator's adaptive split picks the carve-out from the kernel's needs
  }
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache config) {
  ACCELSIM_API_LOCK;
  Kernel* k = rt.kernel(func);
  if (!k) return ret(cudaErrorInvalidDeviceFunction);
  k->cache_config = int(config);
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaFuncSetSharedMemConfig(const void* func, cudaSharedMemConfig) {
  ACCELSIM_API_LOCK;
  return rt.kernel(func) ? cudaSuccess : ret(cudaErrorInvalidDeviceFunction);
}

ACCELSIM_EXPORT cudaError_t cudaFuncGetName(const char** name, const void* func) {
  ACCELSIM_API_LOCK;
  Kernel* k = rt.kernel(func);
  if (!name) return ret(cudaErrorInvalidValue);
  if (!k) return ret(cudaErrorInvalidDeviceFunction);
  *name = k->name.c_str();
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* func,
                                                                                   int block_size, size_t dyn_shared,
                                                                                   unsigned) {
  ACCELSIM_API_LOCK;
  Kernel* k = rt.kernel(func);
  if (!blocks || block_size <= 0) return ret(cudaErrorInvalidValue);
  if (!k) return ret(cudaErrorInvalidDeviceFunction);
  *blocks = ctas_per_sm(rt, *k, block_size, dyn_shared);
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func,
                                                                          int block_size, size_t dyn_shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, func, block_size, dyn_shared, 0);
}

ACCELSIM_EXPORT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* bytes, const void* func, int blocks,
                                                                      int block_size) {
  ACCELSIM_API_LOCK;
  Kernel* k = rt.kernel(func);
  if (!bytes || blocks <= 0 || block_size <= 0) return ret(cudaErrorInvalidValue);
  if (!k) return ret(cudaErrorInvalidDeviceFunction);
  const auto& c = rt.config();
  const int64_t per_block = c.shmem_size / blocks - int64_t(static_shared(rt.function(*k)));
  *bytes = size_t(std::clamp<int64_t>(per_block, 0, c.shmem_per_cta));
  return cudaSuccess;
}
