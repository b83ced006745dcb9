// Block-wide votes and bit scans: __syncthreads_count / _and / _or (PTX
// bar.red) and __ffs (PTX bfind), checked against the host.
#include <vector>

#include "common.h"

__global__ void vote(const unsigned* x, unsigned t, int* count, int* all, int* any, int* first_bit) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = x[i];
  int c = __syncthreads_count(v > t);
  int a = __syncthreads_and(v != 0);
  int o = __syncthreads_or(v == 12345u);
  first_bit[i] = __ffs(int(v));
  if (threadIdx.x == 0) count[blockIdx.x] = c, all[blockIdx.x] = a, any[blockIdx.x] = o;
}

int main() {
  const int blocks = 6, threads = 96, n = blocks * threads;
  const unsigned t = 1u << 30;
  std::vector<unsigned> x(n);
  Rng r(23);
  for (int i = 0; i < n; ++i) x[i] = r.next() >> (r.next() % 32);
  x[5] = 0;       // block 0: not all non-zero
  x[200] = 12345;  // block 2: one matches
  unsigned* dx;
  int *dc, *da, *dor, *df;
  CK(cudaMalloc(&dx, n * 4));
  CK(cudaMalloc(&dc, blocks * 4));
  CK(cudaMalloc(&da, blocks * 4));
  CK(cudaMalloc(&dor, blocks * 4));
  CK(cudaMalloc(&df, n * 4));
  CK(cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice));
  vote<<<blocks, threads>>>(dx, t, dc, da, dor, df);
  std::vector<int> c(blocks), a(blocks), o(blocks), f(n);
  CK(cudaMemcpy(c.data(), dc, blocks * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(a.data(), da, blocks * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(o.data(), dor, blocks * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(f.data(), df, n * 4, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int b = 0; b < blocks; ++b) {
    int cnt = 0, every = 1, some = 0;
    for (int k = b * threads; k < (b + 1) * threads; ++k)
      cnt += x[k] > t, every &= x[k] != 0, some |= x[k] == 12345u;
    bad += c[b] != cnt || a[b] != every || o[b] != some;
  }
  for (int i = 0; i < n; ++i) {
    int want = 0;
    for (int bit = 0; bit < 32; ++bit)
      if ((x[i] >> bit) & 1) {
        want = bit + 1;
        break;
      }
    bad += f[i] != want;
  }
  return finish("block_vote", bad);
}
