// Quasirandom points: the first dimensions of a Halton sequence (radical
// inverse in prime bases), each thread generating points by index.
#include <vector>

#include "common.h"

#define DIMS 3

__constant__ int bases[DIMS] = {2, 3, 5};

__device__ __host__ float radical_inverse(unsigned i, int base) {
  float inv = 1.0f / base, f = inv, r = 0;
  while (i) {
    r += f * (i % base);
    i /= base;
    f *= inv;
  }
  return r;
}

__global__ void halton(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int d = 0; d < DIMS; ++d) out[d * n + i] = radical_inverse(unsigned(i + 1), bases[d]);
}

int main() {
  const int n = 8192, b[DIMS] = {2, 3, 5};
  float* d;
  CK(cudaMalloc(&d, DIMS * n * 4));
  halton<<<(n + 255) / 256, 256>>>(d, n);
  std::vector<float> got(DIMS * n);
  CK(cudaMemcpy(got.data(), d, DIMS * n * 4, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int dd = 0; dd < DIMS; ++dd)
    for (int i = 0; i < n; ++i) bad += !close(got[dd * n + i], radical_inverse(unsigned(i + 1), b[dd]), 1e-6);
  return finish("quasirandom", bad);
}
