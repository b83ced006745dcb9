// Calls through function pointers, as plug-in style kernels use them: a
// table of __device__ functions indexed per thread (lanes of a warp call
// different functions), and a pointer the host fetches with
// cudaMemcpyFromSymbol and passes back as a kernel argument.
#include <vector>

#include "common.h"

typedef float (*op_t)(float);
__device__ __noinline__ float halve(float x) { return x * 0.5f; }
__device__ __noinline__ float cube(float x) { return x * x * x; }
__device__ __noinline__ float shift(float x) { return x + 10.0f; }
__device__ op_t table[3] = {halve, cube, shift};
__device__ op_t chosen = cube;

__global__ void apply_table(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[i % 3](in[i]) + 1.0f;
}

__global__ void apply_one(op_t f, const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(in[i]);
}

int main() {
  const int n = 300;
  std::vector<float> x(n), a(n), b(n);
  Rng rng(3);
  for (auto& v : x) v = rng.uniform() * 4 - 2;
  float *dx, *da, *db;
  CK(cudaMalloc(&dx, n * 4));
  CK(cudaMalloc(&da, n * 4));
  CK(cudaMalloc(&db, n * 4));
  CK(cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice));
  apply_table<<<(n + 127) / 128, 128>>>(dx, da, n);
  op_t f = nullptr;
  CK(cudaMemcpyFromSymbol(&f, chosen, sizeof(f)));
  apply_one<<<(n + 127) / 128, 128>>>(f, dx, db, n);
  CK(cudaMemcpy(a.data(), da, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b.data(), db, n * 4, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int i = 0; i < n; ++i) {
    const float v = x[i];
    const float want = (i % 3 == 0 ? v * 0.5f : i % 3 == 1 ? v * v * v : v + 10.0f) + 1.0f;
    bad += !close(a[i], want, 1e-6) + !close(b[i], v * v * v, 1e-6);
  }
  return finish("function_pointers", bad);
}
