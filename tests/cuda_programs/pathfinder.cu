// Dynamic programming over the rows of a grid (the shortest path from the top
// row down), each block keeping its stripe of the previous row in shared memory.
#include <algorithm>
#include <vector>

#include "common.h"

#define BS 128

__global__ void advance(const int* wall, const int* prev, int* next, int cols, int row) {
  __shared__ int s[BS + 2];
  int x = blockIdx.x * BS + threadIdx.x;
  int big = 1 << 30;
  s[threadIdx.x + 1] = x < cols ? prev[x] : big;
  if (threadIdx.x == 0) s[0] = x > 0 ? prev[x - 1] : big;
  if (threadIdx.x == BS - 1) s[BS + 1] = x + 1 < cols ? prev[x + 1] : big;
  __syncthreads();
  if (x >= cols) return;
  int best = min(s[threadIdx.x + 1], min(s[threadIdx.x], s[threadIdx.x + 2]));
  next[x] = best + wall[row * cols + x];
}

int main() {
  const int cols = 1000, rows = 20;
  std::vector<int> wall(rows * cols);
  Rng r(13);
  for (auto& v : wall) v = int(r.next() % 10);
  int *d_wall, *d_a, *d_b;
  CK(cudaMalloc(&d_wall, rows * cols * 4));
  CK(cudaMalloc(&d_a, cols * 4));
  CK(cudaMalloc(&d_b, cols * 4));
  CK(cudaMemcpy(d_wall, wall.data(), rows * cols * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_a, wall.data(), cols * 4, cudaMemcpyHostToDevice));
  for (int y = 1; y < rows; ++y) {
    advance<<<(cols + BS - 1) / BS, BS>>>(d_wall, d_a, d_b, cols, y);
    std::swap(d_a, d_b);
  }
  std::vector<int> got(cols), cur(wall.begin(), wall.begin() + cols), nxt(cols);
  CK(cudaMemcpy(got.data(), d_a, cols * 4, cudaMemcpyDeviceToHost));
  for (int y = 1; y < rows; ++y) {
    for (int x = 0; x < cols; ++x) {
      int best = cur[x];
      if (x > 0) best = std::min(best, cur[x - 1]);
      if (x + 1 < cols) best = std::min(best, cur[x + 1]);
      nxt[x] = best + wall[y * cols + x];
    }
    cur.swap(nxt);
  }
  long bad = 0;
  for (int x = 0; x < cols; ++x) bad += got[x] != cur[x];
  return finish("pathfinder", bad);
}
