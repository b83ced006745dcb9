// Kernels of accelsim's PTX-mode acceptance tests (docs/ptx.md). The PTX
// beside this file is what `nvcc -ptx -arch=sm_75 -O3` made of it
// (python/accelsim/ptx/examples/build.sh), so the tests need no compiler.
#include <cstdint>

extern "C" __global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(float alpha, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i];
}

// Tree reduction in shared memory; one partial sum per block.
extern "C" __global__ void reduce_shared(const float* in, float* out, int n) {
  __shared__ float buf[256];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  buf[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}

// Warp-shuffle reduction of integers; one atomic per warp.
extern "C" __global__ void reduce_shfl(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}

// Transposes, naive and through a padded shared tile (32x32, block 32x8).
extern "C" __global__ void transpose_naive(const float* in, float* out, int w, int h) {
  int x = blockIdx.x * 32 + threadIdx.x, y0 = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int y = y0 + j;
    if (x < w && y < h) out[x * h + y] = in[y * w + x];
  }
}

extern "C" __global__ void transpose_padded(const float* in, float* out, int w, int h) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Tiled matrix multiply C = A (m x k) * B (k x n), 16x16 tiles.
extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int m, int n, int k) {
  __shared__ float As[16][16], Bs[16][16];
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < k; t += 16) {
    As[threadIdx.y][threadIdx.x] = (row < m && t + threadIdx.x < k) ? A[row * k + t + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (col < n && t + threadIdx.y < k) ? B[(t + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
    for (int e = 0; e < 16; ++e) acc += As[threadIdx.y][e] * Bs[e][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) C[row * n + col] = acc;
}

// Histogram: per-block counts in shared memory, merged with global atomics.
extern "C" __global__ void histogram(const unsigned char* data, unsigned* bins, int n) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b]) atomicAdd(&bins[b], local[b]);
}

// Nested, data-dependent divergent loops.
extern "C" __global__ void nested_divergent(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i], acc = 0;
  for (int a = 0; a < (v & 7); ++a) {
    if ((v + a) & 1) {
      for (int b = 0; b <= a; ++b) acc += b * v;
    } else {
      acc -= a;
      if (acc < -10) break;
    }
  }
  out[i] = acc;
}

// Dynamic shared memory and a by-value struct parameter.
struct Affine {
  float scale;
  float shift;
  int stride;
  int pad;
};
extern "C" __global__ void dyn_shared_struct(const float* in, float* out, Affine p, int n) {
  extern __shared__ float tmp[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tmp[threadIdx.x] = i < n ? in[i] * p.scale + p.shift : 0.0f;
  __syncthreads();
  int j = (threadIdx.x + p.stride) % blockDim.x;
  if (i < n) out[i] = tmp[j];
}
