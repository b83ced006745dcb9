// CUDA arrays and 3-D copies: host -> 3-D array -> pitched 3-D allocation
// (cudaMemcpy3D both ways), a kernel over the pitched volume, and back, plus
// a 2-D array round trip (cudaMemcpy2DToArray / FromArray) and cudaMemset3D.
#include <vector>

#include "common.h"

__global__ void bump(cudaPitchedPtr p, int w, int h, int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x >= w || y >= h || z >= d) return;
  float* row = (float*)((char*)p.ptr + (z * h + y) * p.pitch);
  row[x] = row[x] * 2 + 1;
}

int main() {
  const int w = 40, h = 12, d = 5;
  std::vector<float> host(w * h * d);
  for (size_t i = 0; i < host.size(); ++i) host[i] = float(i);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CK(cudaMalloc3DArray(&arr, &desc, make_cudaExtent(w, h, d)));
  cudaPitchedPtr vol;
  CK(cudaMalloc3D(&vol, make_cudaExtent(w * 4, h, d)));
  CK(cudaMemset3D(vol, 0, make_cudaExtent(w * 4, h, d)));
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(host.data(), w * 4, w, h);
  p.dstArray = arr;
  p.extent = make_cudaExtent(w, h, d);
  p.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&p));
  cudaMemcpy3DParms q{};
  q.srcArray = arr;
  q.dstPtr = vol;
  q.extent = make_cudaExtent(w, h, d);
  q.kind = cudaMemcpyDeviceToDevice;
  CK(cudaMemcpy3D(&q));
  bump<<<dim3((w + 31) / 32, h, d), 32>>>(vol, w, h, d);
  std::vector<float> back(w * h * d);
  cudaMemcpy3DParms r{};
  r.srcPtr = vol;
  r.dstPtr = make_cudaPitchedPtr(back.data(), w * 4, w, h);
  r.extent = make_cudaExtent(w * 4, h, d);
  r.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&r));
  long bad = 0;
  for (size_t i = 0; i < host.size(); ++i) bad += back[i] != host[i] * 2 + 1;
  cudaArray_t flat;
  CK(cudaMallocArray(&flat, &desc, w, h));
  CK(cudaMemcpy2DToArray(flat, 0, 0, host.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  std::vector<float> round(w * h);
  CK(cudaMemcpy2DFromArray(round.data(), w * 4, flat, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < w * h; ++i) bad += round[i] != host[i];
  cudaExtent e;
  cudaChannelFormatDesc got_desc;
  CK(cudaArrayGetInfo(&got_desc, &e, nullptr, arr));
  bad += e.width != size_t(w) || e.height != size_t(h) || e.depth != size_t(d) || got_desc.x != 32;
  CK(cudaFreeArray(arr));
  CK(cudaFreeArray(flat));
  CK(cudaFree(vol.ptr));
  return finish("array3d", bad);
}
