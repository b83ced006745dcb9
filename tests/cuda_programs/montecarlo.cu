// Monte Carlo estimate of pi: each thread runs its own xorshift generator,
// counts hits in the unit circle and the block sums them with atomics.
#include "common.h"

__device__ __host__ unsigned xs(unsigned s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

__global__ void hits(unsigned long long* total, int samples) {
  __shared__ unsigned block_hits;
  if (threadIdx.x == 0) block_hits = 0;
  __syncthreads();
  unsigned s = 2654435761u * (blockIdx.x * blockDim.x + threadIdx.x + 1), mine = 0;
  for (int k = 0; k < samples; ++k) {
    s = xs(s);
    float x = (s >> 8) * (1.0f / 16777216.0f);
    s = xs(s);
    float y = (s >> 8) * (1.0f / 16777216.0f);
    mine += x * x + y * y <= 1.0f;
  }
  atomicAdd(&block_hits, mine);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(total, (unsigned long long)block_hits);
}

int main() {
  const int blocks = 16, threads = 128, samples = 32;
  unsigned long long* d;
  CK(cudaMalloc(&d, 8));
  CK(cudaMemset(d, 0, 8));
  hits<<<blocks, threads>>>(d, samples);
  unsigned long long got = 0, want = 0;
  CK(cudaMemcpy(&got, d, 8, cudaMemcpyDeviceToHost));
  for (int t = 0; t < blocks * threads; ++t) {  // the same streams on the host
    unsigned s = 2654435761u * (t + 1);
    for (int k = 0; k < samples; ++k) {
      s = xs(s);
      float x = (s >> 8) * (1.0f / 16777216.0f);
      s = xs(s);
      float y = (s >> 8) * (1.0f / 16777216.0f);
      want += x * x + y * y <= 1.0f;
    }
  }
  std::printf("pi ~ %.4f\n", 4.0 * double(got) / (blocks * threads * samples));
  return finish("montecarlo", got != want);
}
