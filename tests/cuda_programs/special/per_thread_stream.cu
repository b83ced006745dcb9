// Built with --default-stream per-thread: the _ptds / _ptsz entry points.
#include <cstdio>
__global__ void k(int* p, int v) { p[threadIdx.x] = v + threadIdx.x; }
int main() {
  int* d; int h[32];
  cudaMalloc(&d, sizeof h);
  cudaStream_t s; cudaStreamCreate(&s);
  cudaMemsetAsync(d, 0, sizeof h, 0);
  k<<<1, 32>>>(d, 5);
  cudaEvent_t e; cudaEventCreate(&e); cudaEventRecord(e, 0);
  cudaStreamWaitEvent(s, e, 0);
  cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  int bad = 0; for (int i = 0; i < 32; ++i) bad += h[i] != 5 + i;
  printf("per-thread default stream: %s\n", bad ? "FAILED" : "PASSED");
  return bad != 0;
}
