// Tensor-core GEMMs with wmma's rectangular shapes: one warp per 32x8 output
// tile with m32n8k16 (float accumulators), one per 8x32 tile with m8n32k16
// (half accumulators); half inputs. Needs the emulator's wmma at those shapes.
#include <cuda_fp16.h>
#include <mma.h>

#include <vector>

#include "common.h"

using namespace nvcuda;

// c (m x n, row-major) = a (m x k, row-major) b (k x n, column-major)
template <int M, int N, typename Acc>
__global__ void gemm(const half* a, const half* b, Acc* c, int m, int n, int k) {
  int tile_m = blockIdx.y, tile_n = blockIdx.x;
  wmma::fragment<wmma::matrix_a, M, N, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, 16, Acc> acc;
  wmma::fill_fragment(acc, Acc(0));
  for (int p = 0; p < k; p += 16) {
    wmma::load_matrix_sync(fa, a + tile_m * M * k + p, k);
    wmma::load_matrix_sync(fb, b + tile_n * N * k + p, k);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + tile_m * M * n + tile_n * N, acc, n, wmma::mem_row_major);
}

int main() {
  const int m = 64, n = 64, k = 48;
  std::vector<half> a(m * k), b(k * n);
  std::vector<float> fa(m * k), fb(k * n);  // fb column-major
  Rng r(61);
  for (int i = 0; i < m * k; ++i) fa[i] = float(int(r.next() % 7) - 3), a[i] = __float2half(fa[i]);
  for (int i = 0; i < k * n; ++i) fb[i] = float(int(r.next() % 7) - 3), b[i] = __float2half(fb[i]);
  half *da, *db, *dh;
  float* df;
  CK(cudaMalloc(&da, m * k * 2));
  CK(cudaMalloc(&db, k * n * 2));
  CK(cudaMalloc(&df, m * n * 4));
  CK(cudaMalloc(&dh, m * n * 2));
  CK(cudaMemcpy(da, a.data(), m * k * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, b.data(), k * n * 2, cudaMemcpyHostToDevice));
  gemm<32, 8, float><<<dim3(n / 8, m / 32), 32>>>(da, db, df, m, n, k);
  gemm<8, 32, half><<<dim3(n / 32, m / 8), 32>>>(da, db, dh, m, n, k);
  std::vector<float> cf(m * n);
  std::vector<half> ch(m * n);
  CK(cudaMemcpy(cf.data(), df, m * n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ch.data(), dh, m * n * 2, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float want = 0;  // small integers: exact in half and float alike
      for (int p = 0; p < k; ++p) want += fa[i * k + p] * fb[j * k + p];
      bad += cf[i * n + j] != want;
      bad += __half2float(ch[i * n + j]) != want;
    }
  return finish("wmma_shapes", bad);
}
