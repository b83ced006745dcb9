// Attained bandwidth of L1, L2 and DRAM. Thread g's k-th load reads element
// k * T + g (T = threads in the grid): every warp load is fully coalesced and
// the grid sweeps the buffer once per k. L1 kernels run one block on one SM
// (B/clk/SM); L2 and DRAM kernels put blocks on every SM (B/clk).
// FOOTPRINT (bytes) wraps the sweep so the data stays resident; DRAM uses a
// buffer far larger than L2 and never wraps within the timed part.
#include "common.cuh"

#ifndef FOOTPRINT
#error "FOOTPRINT (bytes) must be defined"
#endif
#ifndef UNROLL
#define UNROLL 4
#endif

struct f4 { float x, y, z, w; };

__device__ __forceinline__ float ld(const float *p, bool ca) {
  float v;
  if (ca) asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
  else asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ float ld(const double *p, bool ca) {
  double v;
  if (ca) asm volatile("ld.global.ca.f64 %0, [%1];" : "=d"(v) : "l"(p));
  else asm volatile("ld.global.cg.f64 %0, [%1];" : "=d"(v) : "l"(p));
  return (float)v;
}
__device__ __forceinline__ float ld(const f4 *p, bool ca) {
  float a, b, c, d;
  if (ca) asm volatile("ld.global.ca.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(p));
  else asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(p));
  return a + b + c + d;
}

// `warm` untimed sweeps, then `reps` timed iterations of UNROLL loads.
template <typename T>
__device__ __forceinline__ void stream(unsigned char *buf, u64 *out, u32 reps, bool ca, u32 warm) {
  const T *a = (const T *)buf;
  const u64 n = (u64)(FOOTPRINT) / sizeof(T);
  const u64 total = (u64)gridDim.x * blockDim.x;
  u64 k = 0;
  float acc = 0.f;
  for (u32 w = 0; w < warm; ++w, ++k) acc += ld(a + (k * total + gtid()) % n, ca);
  __syncthreads();
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) {
#pragma unroll
    for (int u = 0; u < UNROLL; ++u, ++k) acc += ld(a + (k * total + gtid()) % n, ca);
  }
  __syncthreads();
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, __float_as_uint(acc));
}

#define WARM_SWEEPS ((u32)((u64)(FOOTPRINT) / ((u64)gridDim.x * blockDim.x * sizeof(T))))
#define BW_KERNEL(name, T, ca, warm)                                          \
  extern "C" __global__ void name(unsigned char *buf, u64 *out, u32 reps) { \
    stream<T>(buf, out, reps, ca, warm);                                      \
  }

#define T float
BW_KERNEL(l1_bw_32, float, true, WARM_SWEEPS)
BW_KERNEL(l2_bw_32, float, false, WARM_SWEEPS)
#undef T
#define T double
BW_KERNEL(l1_bw_64, double, true, WARM_SWEEPS)
BW_KERNEL(l2_bw_64, double, false, WARM_SWEEPS)
#undef T
#define T f4
BW_KERNEL(l1_bw_128, f4, true, WARM_SWEEPS)
BW_KERNEL(l2_bw, f4, false, WARM_SWEEPS)
BW_KERNEL(dram_bw, f4, false, 0)
#undef T
