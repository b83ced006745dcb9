// LU decomposition without pivoting (Doolittle), one kernel pair per column:
// scale the column below the diagonal, then update the trailing matrix.
#include <vector>

#include "common.h"

__global__ void scale_column(float* a, int n, int k) {
  int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i * n + k] /= a[k * n + k];
}

__global__ void update_trailing(float* a, int n, int k) {
  int j = k + 1 + blockIdx.x * blockDim.x + threadIdx.x, i = k + 1 + blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) a[i * n + j] -= a[i * n + k] * a[k * n + j];
}

int main() {
  const int n = 48;
  std::vector<float> a(n * n);
  Rng r(23);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) a[i * n + j] = r.uniform() + (i == j ? n : 0);  // diagonally dominant
  float* d;
  CK(cudaMalloc(&d, n * n * 4));
  CK(cudaMemcpy(d, a.data(), n * n * 4, cudaMemcpyHostToDevice));
  for (int k = 0; k < n - 1; ++k) {
    int m = n - k - 1;
    scale_column<<<(m + 63) / 64, 64>>>(d, n, k);
    update_trailing<<<dim3((m + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(d, n, k);
  }
  std::vector<float> lu(n * n);
  CK(cudaMemcpy(lu.data(), d, n * n * 4, cudaMemcpyDeviceToHost));
  long bad = 0;  // L * U must give back A
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p <= std::min(i, j); ++p) s += (p == i ? 1.0 : lu[i * n + p]) * lu[p * n + j];
      bad += !close(s, a[i * n + j], 1e-4);
    }
  return finish("lud", bad);
}
