// Tensor-core GEMM with wmma: half inputs, float accumulation, one warp per
// 16x16 output tile. Needs the emulator's wmma (mma) instructions.
#include <cuda_fp16.h>
#include <mma.h>

#include <vector>

#include "common.h"

using namespace nvcuda;

__global__ void gemm(const half* a, const half* b, float* c, int m, int n, int k) {
  int tile_m = blockIdx.y, tile_n = blockIdx.x;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int p = 0; p < k; p += 16) {
    wmma::load_matrix_sync(fa, a + tile_m * 16 * k + p, k);
    wmma::load_matrix_sync(fb, b + p * n + tile_n * 16, n);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + tile_m * 16 * n + tile_n * 16, acc, n, wmma::mem_row_major);
}

int main() {
  const int m = 32, n = 48, k = 64;
  std::vector<half> a(m * k), b(k * n);
  std::vector<float> fa(m * k), fb(k * n);
  Rng r(59);
  for (int i = 0; i < m * k; ++i) fa[i] = float(int(r.next() % 5) - 2), a[i] = __float2half(fa[i]);
  for (int i = 0; i < k * n; ++i) fb[i] = float(int(r.next() % 5) - 2), b[i] = __float2half(fb[i]);
  half *da, *db;
  float* dc;
  CK(cudaMalloc(&da, m * k * 2));
  CK(cudaMalloc(&db, k * n * 2));
  CK(cudaMalloc(&dc, m * n * 4));
  CK(cudaMemcpy(da, a.data(), m * k * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, b.data(), k * n * 2, cudaMemcpyHostToDevice));
  gemm<<<dim3(n / 16, m / 16), 32>>>(da, db, dc, m, n, k);
  std::vector<float> c(m * n);
  CK(cudaMemcpy(c.data(), dc, m * n * 4, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float want = 0;
      for (int p = 0; p < k; ++p) want += fa[i * k + p] * fb[p * n + j];
      bad += c[i * n + j] != want;
    }
  return finish("wmma_gemm", bad);
}
