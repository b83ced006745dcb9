// Matrix transpose through a padded shared-memory tile (no bank conflicts),
// on a pitched allocation copied with cudaMemcpy2D.
#include "common.h"

#define TILE 32
#define ROWS 8

__global__ void transpose(float* out, size_t out_pitch, const float* in, size_t in_pitch, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * (in_pitch / 4) + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < h && y + j < w) out[(y + j) * (out_pitch / 4) + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const int w = 200, h = 136;
  float* a = new float[w * h];
  for (int i = 0; i < w * h; ++i) a[i] = float(i);
  float *d_in, *d_out;
  size_t in_pitch, out_pitch;
  CK(cudaMallocPitch((void**)&d_in, &in_pitch, w * sizeof(float), h));
  CK(cudaMallocPitch((void**)&d_out, &out_pitch, h * sizeof(float), w));
  CK(cudaMemcpy2D(d_in, in_pitch, a, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
  dim3 grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), block(TILE, ROWS);
  transpose<<<grid, block>>>(d_out, out_pitch, d_in, in_pitch, w, h);
  float* t = new float[w * h];
  CK(cudaMemcpy2D(t, h * sizeof(float), d_out, out_pitch, h * sizeof(float), w, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) bad += t[x * h + y] != a[y * w + x];
  return finish("transpose", bad);
}
