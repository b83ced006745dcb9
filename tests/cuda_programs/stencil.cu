// Heat diffusion (a 5-point stencil, as in a hotspot solver), iterated with
// the two buffers swapped each step.
#include <vector>

#include "common.h"

__global__ void step(const float* in, float* out, int w, int h, float k) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float c = in[y * w + x];
  float l = x > 0 ? in[y * w + x - 1] : c, r = x < w - 1 ? in[y * w + x + 1] : c;
  float u = y > 0 ? in[(y - 1) * w + x] : c, d = y < h - 1 ? in[(y + 1) * w + x] : c;
  out[y * w + x] = c + k * (l + r + u + d - 4 * c);
}

int main() {
  const int w = 64, h = 48, iters = 6;
  const float k = 0.2f;
  std::vector<float> a(w * h);
  Rng r(9);
  for (auto& v : a) v = r.uniform() * 100;
  float *d0, *d1;
  CK(cudaMalloc(&d0, w * h * 4));
  CK(cudaMalloc(&d1, w * h * 4));
  CK(cudaMemcpy(d0, a.data(), w * h * 4, cudaMemcpyHostToDevice));
  dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
  for (int i = 0; i < iters; ++i) {
    step<<<grid, block>>>(d0, d1, w, h, k);
    std::swap(d0, d1);
  }
  std::vector<float> got(w * h), b(w * h);
  CK(cudaMemcpy(got.data(), d0, w * h * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < iters; ++i) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        float c = a[y * w + x];
        float l = x > 0 ? a[y * w + x - 1] : c, rr = x < w - 1 ? a[y * w + x + 1] : c;
        float u = y > 0 ? a[(y - 1) * w + x] : c, d = y < h - 1 ? a[(y + 1) * w + x] : c;
        b[y * w + x] = c + k * (l + rr + u + d - 4 * c);
      }
    a.swap(b);
  }
  long bad = 0;
  for (int i = 0; i < w * h; ++i) bad += !close(got[i], a[i], 1e-5);
  return finish("stencil", bad);
}
