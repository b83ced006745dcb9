// An event pair around one kernel; prints the simulated elapsed time with
// enough digits for the test to compare it with the kernel's cycles.
#include <cstdio>

__global__ void work(float* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = d[i] * 2 + 1;
}

int main() {
  const int n = 1 << 15;
  float* d;
  cudaMalloc(&d, n * 4);
  cudaMemset(d, 0, n * 4);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  work<<<n / 256, 256>>>(d, n);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = -1;
  cudaError_t e = cudaEventElapsedTime(&ms, a, b);
  std::printf("elapsed %.9f ms (%s)\n", ms, cudaGetErrorString(e));
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  std::printf("device %s, %d SMs (attribute %d), warp %d, L2 %d\n", p.name, p.multiProcessorCount, sms, p.warpSize,
              p.l2CacheSize);
  int blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, work, 256, 0);
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, work);
  std::printf("occupancy %d blocks of 256, %d registers\n", blocks, fa.numRegs);
  return e == cudaSuccess ? 0 : 1;
}
