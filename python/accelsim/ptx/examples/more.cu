// More kernels of the PTX-mode acceptance tests (see basic.cu).

// Blelloch exclusive scan of one block's 2*blockDim elements (n <= 2*blockDim).
extern "C" __global__ void scan_blelloch(const int* in, int* out, int n) {
  extern __shared__ int s[];
  int t = threadIdx.x, m = 2 * blockDim.x;
  s[2 * t] = 2 * t < n ? in[2 * t] : 0;
  s[2 * t + 1] = 2 * t + 1 < n ? in[2 * t + 1] : 0;
  int off = 1;
  for (int d = m >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) s[off * (2 * t + 2) - 1] += s[off * (2 * t + 1) - 1];
    off <<= 1;
  }
  if (t == 0) s[m - 1] = 0;
  for (int d = 1; d < m; d <<= 1) {
    off >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
      int v = s[ai];
      s[ai] = s[bi];
      s[bi] += v;
    }
  }
  __syncthreads();
  if (2 * t < n) out[2 * t] = s[2 * t];
  if (2 * t + 1 < n) out[2 * t + 1] = s[2 * t + 1];
}

// Hotspot-like 5-point stencil on a w x h grid (borders copied).
extern "C" __global__ void stencil2d(const float* in, float* out, int w, int h, float c0, float c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int i = y * w + x;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
}

// Polybench-style linear algebra (one thread per output element).
extern "C" __global__ void gemm(int ni, int nj, int nk, float alpha, float beta, const float* A,
                                const float* B, float* C) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    float acc = C[i * nj + j] * beta;
    for (int k = 0; k < nk; ++k) acc += alpha * A[i * nk + k] * B[k * nj + j];
    C[i * nj + j] = acc;
  }
}

// atax: tmp = A x ; y = A^T tmp (two kernels)
extern "C" __global__ void atax1(const float* A, const float* x, float* tmp, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    float acc = 0.0f;
    for (int j = 0; j < ny; ++j) acc += A[i * ny + j] * x[j];
    tmp[i] = acc;
  }
}
extern "C" __global__ void atax2(const float* A, const float* tmp, float* y, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    float acc = 0.0f;
    for (int i = 0; i < nx; ++i) acc += A[i * ny + j] * tmp[i];
    y[j] = acc;
  }
}

// bicg: s = A^T r ; q = A p
extern "C" __global__ void bicg1(const float* A, const float* r, float* s, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    float acc = 0.0f;
    for (int i = 0; i < nx; ++i) acc += r[i] * A[i * ny + j];
    s[j] = acc;
  }
}
extern "C" __global__ void bicg2(const float* A, const float* p, float* q, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    float acc = 0.0f;
    for (int j = 0; j < ny; ++j) acc += A[i * ny + j] * p[j];
    q[i] = acc;
  }
}

// mvt: x1 += A y1 ; x2 += A^T y2
extern "C" __global__ void mvt1(const float* A, float* x1, const float* y1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; ++j) x1[i] += A[i * n + j] * y1[j];
}
extern "C" __global__ void mvt2(const float* A, float* x2, const float* y2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; ++j) x2[i] += A[j * n + i] * y2[j];
}

// 2mm: tmp = alpha A B ; D = beta D + tmp C
extern "C" __global__ void mm2_1(int ni, int nj, int nk, float alpha, const float* A, const float* B, float* tmp) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    float acc = 0.0f;
    for (int k = 0; k < nk; ++k) acc += alpha * A[i * nk + k] * B[k * nj + j];
    tmp[i * nj + j] = acc;
  }
}
extern "C" __global__ void mm2_2(int ni, int nl, int nj, float beta, const float* tmp, const float* C, float* D) {
  int l = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && l < nl) {
    float acc = D[i * nl + l] * beta;
    for (int j = 0; j < nj; ++j) acc += tmp[i * nj + j] * C[j * nl + l];
    D[i * nl + l] = acc;
  }
}

// Frontier BFS on a CSR graph: one launch per level.
extern "C" __global__ void bfs_level(const int* row, const int* col, int* dist, const int* frontier,
                                     int nfront, int* next, int* nnext, int level) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nfront) return;
  int v = frontier[t];
  for (int e = row[v]; e < row[v + 1]; ++e) {
    int u = col[e];
    if (atomicCAS(&dist[u], -1, level + 1) == -1) next[atomicAdd(nnext, 1)] = u;
  }
}

// Double precision with libdevice's sin/cos (slow path: a .func with .local memory).
extern "C" __global__ void sincos_f64(const double* x, double* s, double* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[i] = sin(x[i]);
    c[i] = cos(x[i]);
  }
}

// A read through a texture object (point sampling, 1D linear memory).
extern "C" __global__ void tex_read(cudaTextureObject_t t, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i) * 2.0f;
}
