// 64-bin histogram: per-block bins in shared memory with atomics, merged
// into the global histogram with global atomics.
#include "common.h"

#define BINS 64

__global__ void histogram(const unsigned char* data, int n, unsigned* bins) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

int main() {
  const int n = 100000;
  unsigned char* h = new unsigned char[n];
  Rng r(11);
  unsigned want[BINS] = {};
  for (int i = 0; i < n; ++i) h[i] = (unsigned char)(r.next() & 0xff), want[h[i] % BINS]++;
  unsigned char* d;
  unsigned* bins;
  CK(cudaMalloc(&d, n));
  CK(cudaMalloc(&bins, BINS * sizeof(unsigned)));
  CK(cudaMemset(bins, 0, BINS * sizeof(unsigned)));
  CK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
  histogram<<<40, 256>>>(d, n, bins);
  unsigned got[BINS];
  CK(cudaMemcpy(got, bins, sizeof got, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int b = 0; b < BINS; ++b) bad += got[b] != want[b];
  return finish("histogram", bad);
}
