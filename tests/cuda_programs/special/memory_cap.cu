// Device memory is the config's dram_capacity: cudaMalloc beyond what is
// free fails as on the board, cudaFree gives the bytes back, and
// cudaMemGetInfo / totalGlobalMem report the capacity.
#include "common.h"

int main() {
  size_t free0 = 0, total = 0;
  CK(cudaMemGetInfo(&free0, &total));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const size_t big = total / 8 * 5;  // more than half: two cannot be live at once
  void *a = nullptr, *b = nullptr;
  CK(cudaMalloc(&a, big));
  const cudaError_t second = cudaMalloc(&b, big);
  const cudaError_t sticky = cudaGetLastError();  // the failure is reported once, then cleared
  size_t free1 = 0;
  CK(cudaMemGetInfo(&free1, &total));
  CK(cudaFree(a));
  CK(cudaMalloc(&b, big));  // fits again
  std::printf("total %zu GiB, free %zu -> %zu GiB, second: %s\n", total >> 30, free0 >> 30, free1 >> 30,
              cudaGetErrorString(second));
  long bad = 0;
  bad += second != cudaErrorMemoryAllocation || sticky != cudaErrorMemoryAllocation;
  bad += prop.totalGlobalMem != total || free0 != total || free1 != total - big;
  return finish("memory_cap", bad);
}
