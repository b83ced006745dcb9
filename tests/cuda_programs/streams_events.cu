// Copy/compute overlap on two streams with pinned memory, events timing the
// whole pipeline (cudaEventElapsedTime: simulated milliseconds) and a
// cross-stream dependency through cudaStreamWaitEvent.
#include <vector>

#include "common.h"

__global__ void scale(float* d, int n, float f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = d[i] * f + 1.0f;
}

int main() {
  const int n = 1 << 14, chunks = 4, per = n / chunks;
  float *h, *d;
  CK(cudaMallocHost(&h, n * 4));
  CK(cudaMalloc(&d, n * 4));
  for (int i = 0; i < n; ++i) h[i] = float(i % 100);
  cudaStream_t s[2];
  CK(cudaStreamCreate(&s[0]));
  CK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
  cudaEvent_t start, stop, half;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  CK(cudaEventCreate(&half));
  CK(cudaEventRecord(start, s[0]));
  for (int c = 0; c < chunks; ++c) {
    cudaStream_t st = s[c % 2];
    CK(cudaMemcpyAsync(d + c * per, h + c * per, per * 4, cudaMemcpyHostToDevice, st));
    scale<<<(per + 255) / 256, 256, 0, st>>>(d + c * per, per, 2.0f);
    CK(cudaMemcpyAsync(h + c * per, d + c * per, per * 4, cudaMemcpyDeviceToHost, st));
  }
  CK(cudaEventRecord(half, s[1]));
  CK(cudaStreamWaitEvent(s[0], half, 0));
  CK(cudaEventRecord(stop, s[0]));
  CK(cudaEventSynchronize(stop));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, start, stop));
  CK(cudaStreamSynchronize(s[1]));
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != float(i % 100) * 2.0f + 1.0f;
  bad += !(ms > 0);
  std::printf("pipeline: %.4f ms simulated\n", ms);
  CK(cudaEventDestroy(start));
  CK(cudaEventDestroy(stop));
  CK(cudaEventDestroy(half));
  CK(cudaStreamDestroy(s[0]));
  CK(cudaStreamDestroy(s[1]));
  CK(cudaFreeHost(h));
  return finish("streams_events", bad);
}
