// SAXPY with the scale in __constant__ memory, a __device__ counter, a
// __managed__ result, cudaMemcpyToSymbol / FromSymbol and GetSymbolAddress.
#include "common.h"

__constant__ float scale[2];
__device__ unsigned done_blocks;
__managed__ int managed_flag;

__global__ void saxpy(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = scale[0] * x[i] + scale[1] * y[i];
  if (threadIdx.x == 0) atomicAdd(&done_blocks, 1u);
  if (i == 0) managed_flag = 42;
}

int main() {
  const int n = 5000;
  float *x = new float[n], *y = new float[n];
  for (int i = 0; i < n; ++i) x[i] = float(i), y[i] = 1.0f;
  float s[2] = {2.0f, 3.0f};
  CK(cudaMemcpyToSymbol(scale, s, sizeof s));
  unsigned zero = 0;
  CK(cudaMemcpyToSymbol(done_blocks, &zero, sizeof zero));
  float *dx, *dy;
  CK(cudaMalloc(&dx, n * sizeof(float)));
  CK(cudaMalloc(&dy, n * sizeof(float)));
  CK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice));
  managed_flag = 0;
  const int blocks = (n + 255) / 256;
  saxpy<<<blocks, 256>>>(dx, dy, n);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned counted = 0;
  CK(cudaMemcpyFromSymbol(&counted, done_blocks, sizeof counted));
  void* addr = nullptr;
  size_t size = 0;
  CK(cudaGetSymbolAddress(&addr, scale));
  CK(cudaGetSymbolSize(&size, scale));
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += y[i] != 2.0f * i + 3.0f;
  bad += counted != unsigned(blocks);
  bad += managed_flag != 42;
  bad += addr == nullptr || size != sizeof s;
  std::printf("blocks counted %u, managed flag %d\n", counted, managed_flag);
  return finish("saxpy_constant", bad);
}
