// DRAM bandwidth under a mix of reads and writes (accelsim/microbench/dram_mix.py).
// mem_bw: the reference suite's kernel shape: a grid-stride loop over
// arrays of ARRAY bytes, one float4 loaded from each of READS arrays
// (L1-bypassing) and their sum stored to the next; `reps` passes.
// dram_rw_bw: a steady stream, READS double loads and one double store per
// thread and step, element k * T + g of arrays of FOOTPRINT bytes.
#include "common.cuh"

#ifndef READS
#error "READS (loaded arrays) must be defined"
#endif

struct f4 { float x, y, z, w; };

__device__ __forceinline__ f4 ld_cg_f4(const f4 *p) {
  f4 v;
  asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
  return v;
}
__device__ __forceinline__ double ld_cg_f64(const double *p) {
  double v;
  asm volatile("ld.global.cg.f64 %0, [%1];" : "=d"(v) : "l"(p));
  return v;
}

#ifdef ARRAY
extern "C" __global__ void mem_bw(unsigned char *buf, u64 *out, u32 reps) {
  const u64 n = (u64)(ARRAY) / sizeof(f4);
  const u64 total = (u64)gridDim.x * blockDim.x;
  f4 *dst = (f4 *)(buf + (u64)(READS) * (ARRAY));
  __syncthreads();
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) {
    for (u64 i = gtid(); i < n; i += total) {
      f4 s = {0.f, 0.f, 0.f, 0.f};
#pragma unroll
      for (int a = 0; a < READS; ++a) {
        f4 v = ld_cg_f4((const f4 *)(buf + (u64)a * (ARRAY)) + i);
        s.x += v.x; s.y += v.y; s.z += v.z; s.w += v.w;
      }
      dst[i] = s;
    }
  }
  __syncthreads();
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, reps);
}
#endif

#ifdef FOOTPRINT
extern "C" __global__ void dram_rw_bw(unsigned char *buf, u64 *out, u32 reps) {
  const u64 n = (u64)(FOOTPRINT) / sizeof(double);
  const u64 total = (u64)gridDim.x * blockDim.x;
  double *dst = (double *)(buf + (u64)(READS) * (FOOTPRINT));
  __syncthreads();
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) {
    const u64 i = ((u64)r * total + gtid()) % n;
    double s = 0.0;
#pragma unroll
    for (int a = 0; a < READS; ++a) s += ld_cg_f64((const double *)(buf + (u64)a * (FOOTPRINT)) + i);
    dst[i] = s;
  }
  __syncthreads();
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, reps);
}
#endif
