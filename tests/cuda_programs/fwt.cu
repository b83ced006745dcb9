// Fast Walsh-Hadamard transform: log2(n) butterfly passes, one launch each.
#include <vector>

#include "common.h"

__global__ void butterfly(float* d, int n, int half) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;  // one pair per thread
  if (i >= n / 2) return;
  int lo = (i / half) * 2 * half + i % half, hi = lo + half;
  float a = d[lo], b = d[hi];
  d[lo] = a + b;
  d[hi] = a - b;
}

int main() {
  const int n = 1 << 12;
  std::vector<float> h(n);
  Rng r(47);
  for (auto& v : h) v = float(int(r.next() % 7) - 3);
  float* d;
  CK(cudaMalloc(&d, n * 4));
  CK(cudaMemcpy(d, h.data(), n * 4, cudaMemcpyHostToDevice));
  for (int half = 1; half < n; half *= 2) butterfly<<<(n / 2 + 255) / 256, 256>>>(d, n, half);
  std::vector<float> got(n);
  CK(cudaMemcpy(got.data(), d, n * 4, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int k = 0; k < n; k += 97) {  // spot checks of the definition: sum of (-1)^popc(i&k) h[i]
    double s = 0;
    for (int i = 0; i < n; ++i) s += (__builtin_popcount(i & k) & 1 ? -1.0 : 1.0) * h[i];
    bad += got[k] != float(s);
  }
  return finish("fwt", bad);
}
