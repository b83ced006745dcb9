// Tiled single-precision matrix multiply C = A * B (16x16 shared tiles).
#include "common.h"

#define T 16

__global__ void sgemm(const float* A, const float* B, float* C, int m, int n, int k) {
  __shared__ float As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0;
  for (int t = 0; t < k; t += T) {
    As[threadIdx.y][threadIdx.x] = row < m && t + threadIdx.x < k ? A[row * k + t + threadIdx.x] : 0;
    Bs[threadIdx.y][threadIdx.x] = col < n && t + threadIdx.y < k ? B[(t + threadIdx.y) * n + col] : 0;
    __syncthreads();
    for (int i = 0; i < T; ++i) acc += As[threadIdx.y][i] * Bs[i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) C[row * n + col] = acc;
}

int main() {
  const int m = 96, n = 80, k = 64;
  float *a = new float[m * k], *b = new float[k * n], *c = new float[m * n];
  Rng r(5);
  for (int i = 0; i < m * k; ++i) a[i] = float(int(r.next() % 7) - 3);
  for (int i = 0; i < k * n; ++i) b[i] = float(int(r.next() % 5) - 2);
  float *da, *db, *dc;
  CK(cudaMalloc(&da, m * k * 4));
  CK(cudaMalloc(&db, k * n * 4));
  CK(cudaMalloc(&dc, m * n * 4));
  CK(cudaMemcpy(da, a, m * k * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, b, k * n * 4, cudaMemcpyHostToDevice));
  sgemm<<<dim3((n + T - 1) / T, (m + T - 1) / T), dim3(T, T)>>>(da, db, dc, m, n, k);
  CK(cudaMemcpy(c, dc, m * n * 4, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float want = 0;
      for (int p = 0; p < k; ++p) want += a[i * k + p] * b[p * n + j];
      bad += c[i * n + j] != want;  // small integers: exact
    }
  return finish("sgemm", bad);
}
