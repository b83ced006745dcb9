// A 2-D texture over a CUDA array, read with tex2D (point sampling, clamped
// coordinates): a box blur.
#include <vector>

#include "common.h"

__global__ void blur(cudaTextureObject_t tex, float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float s = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) s += tex2D<float>(tex, x + dx + 0.5f, y + dy + 0.5f);
  out[y * w + x] = s / 9;
}

int main() {
  const int w = 32, h = 24;
  std::vector<float> img(w * h);
  for (int i = 0; i < w * h; ++i) img[i] = float(i % 17);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CK(cudaMallocArray(&arr, &desc, w, h));
  CK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  CK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
  float* d;
  CK(cudaMalloc(&d, w * h * 4));
  blur<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(tex, d, w, h);
  std::vector<float> got(w * h);
  CK(cudaMemcpy(got.data(), d, w * h * 4, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float s = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          int xx = std::min(std::max(x + dx, 0), w - 1), yy = std::min(std::max(y + dy, 0), h - 1);
          s += img[yy * w + xx];
        }
      bad += !close(got[y * w + x], s / 9, 1e-5);
    }
  return finish("texture2d", bad);
}
