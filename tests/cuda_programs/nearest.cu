// Nearest neighbour: each thread computes one record's distance to a query
// point; the host picks the k smallest.
#include <algorithm>
#include <vector>

#include "common.h"

__global__ void distance(const float2* pts, float* dist, int n, float qx, float qy) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dist[i] = sqrtf((pts[i].x - qx) * (pts[i].x - qx) + (pts[i].y - qy) * (pts[i].y - qy));
}

int main() {
  const int n = 20000, k = 5;
  const float qx = 30.0f, qy = 90.0f;
  std::vector<float2> pts(n);
  Rng r(17);
  for (auto& p : pts) p = make_float2(r.uniform() * 180 - 90, r.uniform() * 360 - 180);
  float2* d_pts;
  float* d_dist;
  CK(cudaMalloc(&d_pts, n * sizeof(float2)));
  CK(cudaMalloc(&d_dist, n * 4));
  CK(cudaMemcpy(d_pts, pts.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
  distance<<<(n + 255) / 256, 256>>>(d_pts, d_dist, n, qx, qy);
  std::vector<float> got(n);
  CK(cudaMemcpy(got.data(), d_dist, n * 4, cudaMemcpyDeviceToHost));
  std::vector<int> gi(n), wi(n);
  for (int i = 0; i < n; ++i) gi[i] = wi[i] = i;
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i) want[i] = sqrtf((pts[i].x - qx) * (pts[i].x - qx) + (pts[i].y - qy) * (pts[i].y - qy));
  auto by = [](const std::vector<float>& d) { return [&d](int a, int b) { return d[a] < d[b] || (d[a] == d[b] && a < b); }; };
  std::partial_sort(gi.begin(), gi.begin() + k, gi.end(), by(got));
  std::partial_sort(wi.begin(), wi.begin() + k, wi.end(), by(want));
  long bad = 0;
  for (int i = 0; i < k; ++i) bad += gi[i] != wi[i];
  for (int i = 0; i < n; ++i) bad += !close(got[i], want[i], 1e-6);
  return finish("nearest", bad);
}
