// Kernel launches, in both sequences nvcc emits. Up to CUDA 12 the host
// stub pops the <<<...>>> configuration (__cudaPushCallConfiguration /
// __cudaPopCallConfiguration) and calls cudaLaunchKernel(stub, ...); CUDA
// 13's stub looks the kernel up once (__cudaGetKernel: a cudaKernel_t
// handle) and launches through __cudaLaunchKernel(handle, ...). Both end in
// Runtime::launch, which queues a PTX launch command.
#include <string>
#include <vector>

#include "api.h"

using accelsim::cudart::Kernel;
using accelsim::cudart::ret;

namespace {

struct CallConfig {
  dim3 grid, block;
  size_t shared = 0;
  cudaStream_t stream = nullptr;
};

std::vector<CallConfig>& call_stack() {
  thread_local std::vector<CallConfig> s;  // <<<>>> nests per host thread
  return s;
}

cudaError_t launch_stub(accelsim::cudart::Runtime& rt, const void* func, dim3 grid, dim3 block, void** args,
                        size_t shared, cudaStream_t stream) {
  Kernel* k = rt.kernel(func);
  if (!k) return ret(cudaErrorInvalidDeviceFunction);
  return rt.launch(*k, grid, block, args, shared, stream);
}

}  // namespace

ACCELSIM_EXPORT unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, void* stream) {
  call_stack().push_back({grid, block, shared, static_cast<cudaStream_t>(stream)});
  return 0;
}

ACCELSIM_EXPORT cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream) {
  auto& s = call_stack();
  if (s.empty()) return ret(cudaErrorMissingConfiguration);
  *grid = s.back().grid;
  *block = s.back().block;
  *shared = s.back().shared;
  *static_cast<cudaStream_t*>(stream) = s.back().stream;
  s.pop_back();
  return cudaSuccess;
}

// CUDA 13: the handle is the Kernel record itself.
ACCELSIM_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* func) {
  ACCELSIM_API_LOCK;
  Kernel* k = rt.kernel(func);
  if (!k) return ret(cudaErrorInvalidDeviceFunction);
  *kernel = reinterpret_cast<cudaKernel_t>(k);
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                                               size_t shared, cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  if (!kernel) return ret(cudaErrorInvalidDeviceFunction);
  return rt.launch(*reinterpret_cast<Kernel*>(kernel), grid, block, args, shared, stream);
}

ACCELSIM_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                                                    size_t shared, cudaStream_t stream) {
  return __cudaLaunchKernel(kernel, grid, block, args, shared, stream ? stream : cudaStreamPerThread);
}

ACCELSIM_EXPORT cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                             cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  return launch_stub(rt, func, grid, block, args, shared, stream);
}

ACCELSIM_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args,
                                                  size_t shared, cudaStream_t stream) {
  return cudaLaunchKernel(func, grid, block, args, shared, stream ? stream : cudaStreamPerThread);
}

// cudaLaunchKernelEx (C++ template over this): attributes other than the
// launch shape do not change what the simulator runs.
ACCELSIM_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  ACCELSIM_API_LOCK;
  if (!config) return ret(cudaErrorInvalidValue);
  return launch_stub(rt, func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream);
}

ACCELSIM_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args,
                                                        size_t shared, cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  return launch_stub(rt, func, grid, block, args, shared, stream);
}
