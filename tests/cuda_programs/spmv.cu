// Sparse matrix-vector product, CSR, one warp per row with a shuffle reduction.
#include <vector>

#include "common.h"

__global__ void spmv(const int* row, const int* col, const float* val, const float* x, float* y, int rows) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (warp >= rows) return;
  float s = 0;
  for (int e = row[warp] + lane; e < row[warp + 1]; e += 32) s += val[e] * x[col[e]];
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffff, s, off);
  if (lane == 0) y[warp] = s;
}

int main() {
  const int rows = 1000, cols = 800;
  std::vector<int> row(rows + 1), col;
  std::vector<float> val, x(cols);
  Rng r(37);
  for (int i = 0; i < rows; ++i) {
    row[i] = int(col.size());
    int nnz = 1 + int(r.next() % 40);
    for (int k = 0; k < nnz; ++k) col.push_back(int(r.next() % cols)), val.push_back(float(int(r.next() % 9) - 4));
  }
  row[rows] = int(col.size());
  for (auto& v : x) v = float(int(r.next() % 5));
  int *d_row, *d_col;
  float *d_val, *d_x, *d_y;
  CK(cudaMalloc(&d_row, (rows + 1) * 4));
  CK(cudaMalloc(&d_col, col.size() * 4));
  CK(cudaMalloc(&d_val, val.size() * 4));
  CK(cudaMalloc(&d_x, cols * 4));
  CK(cudaMalloc(&d_y, rows * 4));
  CK(cudaMemcpy(d_row, row.data(), (rows + 1) * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_col, col.data(), col.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_val, val.data(), val.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_x, x.data(), cols * 4, cudaMemcpyHostToDevice));
  spmv<<<(rows * 32 + 127) / 128, 128>>>(d_row, d_col, d_val, d_x, d_y, rows);
  std::vector<float> got(rows);
  CK(cudaMemcpy(got.data(), d_y, rows * 4, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int i = 0; i < rows; ++i) {
    float want = 0;
    for (int e = row[i]; e < row[i + 1]; ++e) want += val[e] * x[col[e]];
    bad += got[i] != want;  // small integers: exact in any order
  }
  return finish("spmv", bad);
}
