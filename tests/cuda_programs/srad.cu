// Speckle-reducing anisotropic diffusion: per iteration a reduction of the
// image statistics (on the host, as Rodinia's srad_v2 does), a kernel for the
// diffusion coefficients and one applying the update.
#include <cmath>
#include <vector>

#include "common.h"

__global__ void coefficients(const float* J, float* c, float* dN, float* dS, float* dW, float* dE, int w, int h,
                             float q0sq) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int i = y * w + x;
  float Jc = J[i];
  float n = J[(y > 0 ? y - 1 : 0) * w + x] - Jc, s = J[(y < h - 1 ? y + 1 : h - 1) * w + x] - Jc;
  float we = J[y * w + (x > 0 ? x - 1 : 0)] - Jc, e = J[y * w + (x < w - 1 ? x + 1 : w - 1)] - Jc;
  float g2 = (n * n + s * s + we * we + e * e) / (Jc * Jc);
  float l = (n + s + we + e) / Jc;
  float num = 0.5f * g2 - 0.0625f * l * l, den = 1 + 0.25f * l;
  float qsq = num / (den * den);
  float cc = 1.0f / (1.0f + (qsq - q0sq) / (q0sq * (1 + q0sq)));
  c[i] = cc < 0 ? 0 : (cc > 1 ? 1 : cc);
  dN[i] = n, dS[i] = s, dW[i] = we, dE[i] = e;
}

__global__ void update(float* J, const float* c, const float* dN, const float* dS, const float* dW, const float* dE,
                       int w, int h, float lambda) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int i = y * w + x;
  float cs = c[(y < h - 1 ? y + 1 : h - 1) * w + x], ce = c[y * w + (x < w - 1 ? x + 1 : w - 1)];
  float d = c[i] * dN[i] + cs * dS[i] + c[i] * dW[i] + ce * dE[i];
  J[i] += 0.25f * lambda * d;
}

int main() {
  const int w = 48, h = 40, iters = 3;
  const float lambda = 0.5f;
  std::vector<float> J(w * h);
  Rng r(41);
  for (auto& v : J) v = std::exp(r.uniform());
  float *dJ, *dc, *dN, *dS, *dW, *dE;
  for (float** p : {&dJ, &dc, &dN, &dS, &dW, &dE}) CK(cudaMalloc(p, w * h * 4));
  CK(cudaMemcpy(dJ, J.data(), w * h * 4, cudaMemcpyHostToDevice));
  std::vector<float> ref = J, cref(w * h), n(w * h), s(w * h), we(w * h), e(w * h);
  dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
  for (int it = 0; it < iters; ++it) {
    std::vector<float> cur(w * h);
    CK(cudaMemcpy(cur.data(), dJ, w * h * 4, cudaMemcpyDeviceToHost));
    double sum = 0, sum2 = 0;
    for (float v : cur) sum += v, sum2 += double(v) * v;
    double mean = sum / (w * h), var = sum2 / (w * h) - mean * mean;
    float q0sq = float(var / (mean * mean));
    coefficients<<<grid, block>>>(dJ, dc, dN, dS, dW, dE, w, h, q0sq);
    update<<<grid, block>>>(dJ, dc, dN, dS, dW, dE, w, h, lambda);
    // the same on the host, from the device's input of this iteration
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        int i = y * w + x;
        float Jc = cur[i];
        n[i] = cur[(y > 0 ? y - 1 : 0) * w + x] - Jc, s[i] = cur[(y < h - 1 ? y + 1 : h - 1) * w + x] - Jc;
        we[i] = cur[y * w + (x > 0 ? x - 1 : 0)] - Jc, e[i] = cur[y * w + (x < w - 1 ? x + 1 : w - 1)] - Jc;
        float g2 = (n[i] * n[i] + s[i] * s[i] + we[i] * we[i] + e[i] * e[i]) / (Jc * Jc);
        float l = (n[i] + s[i] + we[i] + e[i]) / Jc;
        float num = 0.5f * g2 - 0.0625f * l * l, den = 1 + 0.25f * l;
        float qsq = num / (den * den);
        float cc = 1.0f / (1.0f + (qsq - q0sq) / (q0sq * (1 + q0sq)));
        cref[i] = cc < 0 ? 0 : (cc > 1 ? 1 : cc);
      }
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        int i = y * w + x;
        float cs = cref[(y < h - 1 ? y + 1 : h - 1) * w + x], ce = cref[y * w + (x < w - 1 ? x + 1 : w - 1)];
        ref[i] = cur[i] + 0.25f * lambda * (cref[i] * n[i] + cs * s[i] + cref[i] * we[i] + ce * e[i]);
      }
  }
  std::vector<float> got(w * h);
  CK(cudaMemcpy(got.data(), dJ, w * h * 4, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int i = 0; i < w * h; ++i) bad += !close(got[i], ref[i], 1e-4);
  return finish("srad", bad);
}
