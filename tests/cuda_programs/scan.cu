// Exclusive prefix sum: a Blelloch scan per block, a scan of the block sums,
// and a pass adding each block's offset.
#include "common.h"

#define B 256  // elements per block (128 threads, two each)

__global__ void scan_block(const int* in, int* out, int* sums, int n) {
  __shared__ int s[B];
  int t = threadIdx.x, base = blockIdx.x * B;
  s[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
  s[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
  int off = 1;
  for (int d = B >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) s[off * (2 * t + 2) - 1] += s[off * (2 * t + 1) - 1];
    off <<= 1;
  }
  if (t == 0) {
    if (sums) sums[blockIdx.x] = s[B - 1];
    s[B - 1] = 0;
  }
  for (int d = 1; d < B; d <<= 1) {
    off >>= 1;
    __syncthreads();
    if (t < d) {
      int a = off * (2 * t + 1) - 1, b = off * (2 * t + 2) - 1;
      int v = s[a];
      s[a] = s[b];
      s[b] += v;
    }
  }
  __syncthreads();
  if (base + 2 * t < n) out[base + 2 * t] = s[2 * t];
  if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = s[2 * t + 1];
}

__global__ void add_offsets(int* out, const int* offsets, int n) {
  int i = blockIdx.x * B + threadIdx.x;
  if (i < n) out[i] += offsets[blockIdx.x];
  if (i + B / 2 < n) out[i + B / 2] += offsets[blockIdx.x];
}

int main() {
  const int n = 200 * B + 77, blocks = (n + B - 1) / B;  // blocks <= B: one level of block sums
  int* h = new int[n];
  Rng r(3);
  for (int i = 0; i < n; ++i) h[i] = int(r.next() % 10);
  int *d_in, *d_out, *d_sums, *d_offsets;
  CK(cudaMalloc(&d_in, n * sizeof(int)));
  CK(cudaMalloc(&d_out, n * sizeof(int)));
  CK(cudaMalloc(&d_sums, B * sizeof(int)));
  CK(cudaMalloc(&d_offsets, B * sizeof(int)));
  CK(cudaMemset(d_sums, 0, B * sizeof(int)));
  CK(cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice));
  scan_block<<<blocks, B / 2>>>(d_in, d_out, d_sums, n);
  scan_block<<<1, B / 2>>>(d_sums, d_offsets, nullptr, blocks);
  add_offsets<<<blocks, B / 2>>>(d_out, d_offsets, n);
  int* got = new int[n];
  CK(cudaMemcpy(got, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  long bad = 0, run = 0;
  for (int i = 0; i < n; ++i) bad += got[i] != run, run += h[i];
  return finish("scan", bad);
}
