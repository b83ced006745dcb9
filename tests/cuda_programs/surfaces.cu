// Surface objects over CUDA arrays, as image-processing codes use them: a
// kernel writes a float image with surf2Dwrite, a second reads it back with
// surf2Dread under the clamp and zero boundary modes, a third writes uchar4
// texels of a layered array (surf2DLayeredwrite) that the host reads with
// cudaMemcpy3D. An array made without cudaArraySurfaceLoadStore gives no
// surface object, as on CUDA.
#include <vector>

#include "common.h"

const int W = 20, H = 11, L = 3;

__global__ void paint(cudaSurfaceObject_t s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < W) surf2Dwrite(float(x * 100 + y), s, x * 4, y);
}

__global__ void shifted(cudaSurfaceObject_t s, float* clamp, float* zero) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= W) return;
  clamp[y * W + x] = surf2Dread<float>(s, (x + 3) * 4, y - 2, cudaBoundaryModeClamp);
  zero[y * W + x] = surf2Dread<float>(s, (x + 3) * 4, y - 2, cudaBoundaryModeZero);
}

__global__ void layers(cudaSurfaceObject_t s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, l = blockIdx.z;
  if (x < W) surf2DLayeredwrite(make_uchar4(x, y, l, x ^ y), s, x * 4, y, l);
}

cudaSurfaceObject_t make_surface(cudaArray_t a) {
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  if (cudaCreateSurfaceObject(&s, &res) != cudaSuccess) return 0;
  return s;
}

int main() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>(), bd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t img, lay, plain;
  CK(cudaMallocArray(&img, &fd, W, H, cudaArraySurfaceLoadStore));
  CK(cudaMalloc3DArray(&lay, &bd, make_cudaExtent(W, H, L), cudaArrayLayered | cudaArraySurfaceLoadStore));
  CK(cudaMallocArray(&plain, &fd, W, H));
  long bad = make_surface(plain) != 0;  // no load/store flag: no surface
  (void)cudaGetLastError();
  cudaSurfaceObject_t si = make_surface(img), sl = make_surface(lay);
  bad += !si || !sl;
  float *dc, *dz;
  CK(cudaMalloc(&dc, W * H * 4));
  CK(cudaMalloc(&dz, W * H * 4));
  paint<<<dim3(1, H), 32>>>(si);
  shifted<<<dim3(1, H), 32>>>(si, dc, dz);
  layers<<<dim3(1, H, L), 32>>>(sl);
  std::vector<float> c(W * H), z(W * H), back(W * H);
  std::vector<uchar4> texels(W * H * L);
  CK(cudaMemcpy(c.data(), dc, W * H * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(z.data(), dz, W * H * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy2DFromArray(back.data(), W * 4, img, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
  cudaMemcpy3DParms p{};
  p.srcArray = lay;
  p.dstPtr = make_cudaPitchedPtr(texels.data(), W * 4, W, H);
  p.extent = make_cudaExtent(W, H, L);
  p.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&p));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      bad += back[y * W + x] != float(x * 100 + y);
      const int sx = x + 3, sy = y - 2;
      const bool in = sx < W && sy >= 0;
      bad += z[y * W + x] != (in ? float(sx * 100 + sy) : 0.0f);
      bad += c[y * W + x] != float(std::min(sx, W - 1) * 100 + std::max(sy, 0));
      for (int l = 0; l < L; ++l) {
        const uchar4 t = texels[(l * H + y) * W + x];
        bad += t.x != x || t.y != y || t.z != l || t.w != (x ^ y);
      }
    }
  return finish("surfaces", bad);
}
