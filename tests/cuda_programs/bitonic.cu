// Bitonic sorting network over 2048 keys: a launch per compare-exchange stage.
#include <algorithm>
#include <vector>

#include "common.h"

__global__ void stage(unsigned* d, int j, int k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, p = i ^ j;
  if (p <= i) return;
  bool up = (i & k) == 0;
  unsigned a = d[i], b = d[p];
  if ((a > b) == up) d[i] = b, d[p] = a;
}

int main() {
  const int n = 2048;
  std::vector<unsigned> h(n);
  Rng r(53);
  for (auto& v : h) v = r.next() % 100000;
  unsigned* d;
  CK(cudaMalloc(&d, n * 4));
  CK(cudaMemcpy(d, h.data(), n * 4, cudaMemcpyHostToDevice));
  for (int k = 2; k <= n; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) stage<<<n / 256, 256>>>(d, j, k);
  std::vector<unsigned> got(n);
  CK(cudaMemcpy(got.data(), d, n * 4, cudaMemcpyDeviceToHost));
  std::sort(h.begin(), h.end());
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += got[i] != h[i];
  return finish("bitonic", bad);
}
