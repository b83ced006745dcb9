// k-means assignment step with the points read through a texture object
// over linear memory (tex1Dfetch), centroids in __constant__ memory, and
// the new centroids summed on the host (as Rodinia's kmeans does).
#include <vector>

#include "common.h"

#define K 5
#define D 4

__constant__ float centroids[K * D];

__global__ void assign(cudaTextureObject_t points, int* membership, int n) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  int best = 0;
  float best_d = 3.4e38f;
  for (int c = 0; c < K; ++c) {
    float d = 0;
    for (int j = 0; j < D; ++j) {
      float v = tex1Dfetch<float>(points, p * D + j) - centroids[c * D + j];
      d += v * v;
    }
    if (d < best_d) best_d = d, best = c;
  }
  membership[p] = best;
}

int main() {
  const int n = 4000, iters = 3;
  std::vector<float> pts(n * D), cent(K * D);
  Rng r(43);
  for (auto& v : pts) v = float(int(r.next() % 1000)) / 10;
  for (int c = 0; c < K; ++c)
    for (int j = 0; j < D; ++j) cent[c * D + j] = pts[c * D + j];
  float* d_pts;
  int* d_member;
  CK(cudaMalloc(&d_pts, n * D * 4));
  CK(cudaMalloc(&d_member, n * 4));
  CK(cudaMemcpy(d_pts, pts.data(), n * D * 4, cudaMemcpyHostToDevice));
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = d_pts;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * D * 4;
  cudaTextureDesc td{};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  CK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
  std::vector<int> member(n);
  long bad = 0;
  for (int it = 0; it < iters; ++it) {
    CK(cudaMemcpyToSymbol(centroids, cent.data(), K * D * 4));
    assign<<<(n + 127) / 128, 128>>>(tex, d_member, n);
    CK(cudaMemcpy(member.data(), d_member, n * 4, cudaMemcpyDeviceToHost));
    for (int p = 0; p < n; ++p) {  // the host's own assignment
      int best = 0;
      float best_d = 3.4e38f;
      for (int c = 0; c < K; ++c) {
        float d = 0;
        for (int j = 0; j < D; ++j) {
          float v = pts[p * D + j] - cent[c * D + j];
          d += v * v;
        }
        if (d < best_d) best_d = d, best = c;
      }
      bad += member[p] != best;
    }
    std::vector<double> sum(K * D, 0);
    std::vector<int> count(K, 0);
    for (int p = 0; p < n; ++p) {
      ++count[member[p]];
      for (int j = 0; j < D; ++j) sum[member[p] * D + j] += pts[p * D + j];
    }
    for (int c = 0; c < K; ++c)
      for (int j = 0; j < D; ++j)
        if (count[c]) cent[c * D + j] = float(sum[c * D + j] / count[c]);
  }
  CK(cudaDestroyTextureObject(tex));
  return finish("kmeans_texture", bad);
}
