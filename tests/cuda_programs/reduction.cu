// Tree reduction in shared memory, then a second pass over the block sums.
#include "common.h"

__global__ void block_sum(const float* in, float* out, int n) {
  extern __shared__ float s[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + t;
  float v = 0;
  if (i < n) v += in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  s[t] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
  const int n = 1 << 16, threads = 128, blocks = (n + 2 * threads - 1) / (2 * threads);
  float* h = new float[n];
  Rng r(7);
  double want = 0;
  for (int i = 0; i < n; ++i) h[i] = float(r.next() % 100), want += h[i];
  float *d_in, *d_part, *d_out;
  CK(cudaMalloc(&d_in, n * sizeof(float)));
  CK(cudaMalloc(&d_part, blocks * sizeof(float)));
  CK(cudaMalloc(&d_out, sizeof(float)));
  CK(cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice));
  block_sum<<<blocks, threads, threads * sizeof(float)>>>(d_in, d_part, n);
  block_sum<<<1, threads, threads * sizeof(float)>>>(d_part, d_out, blocks);
  CK(cudaGetLastError());
  float got = 0;
  CK(cudaMemcpy(&got, d_out, sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("sum %.0f (expected %.0f)\n", got, want);
  return finish("reduction", got != float(want));
}
