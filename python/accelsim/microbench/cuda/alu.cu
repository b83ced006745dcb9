// Execution units: dependent latency (one thread, one chain where every
// instruction reads the previous result) and peak throughput (a full block,
// CHAINS independent chains per thread, so the unit's issue rate is the only
// limit). Inline PTX fixes the instruction: fma.rn.f32 (FFMA), fma.rn.f64
// (DFMA), fma.rn.f16x2 (HFMA2), mad.lo.s32 (IMAD), sqrt.approx.f32 (MUFU).
#include "common.cuh"

#ifndef CHAINS
#define CHAINS 4
#endif
#ifndef STEPS
#define STEPS 4  // dependent instructions per loop iteration
#endif

#define OP_fp32(x, a, b) asm volatile("fma.rn.f32 %0, %1, %2, %0;" : "+f"(x) : "f"(a), "f"(b))
#define OP_fp64(x, a, b) asm volatile("fma.rn.f64 %0, %1, %2, %0;" : "+d"(x) : "d"(a), "d"(b))
#define OP_fp16(x, a, b) asm volatile("fma.rn.f16x2 %0, %1, %2, %0;" : "+r"(x) : "r"(a), "r"(b))
#define OP_int32(x, a, b) asm volatile("mad.lo.s32 %0, %1, %2, %0;" : "+r"(x) : "r"(a), "r"(b))
#define OP_sfu(x, a, b) asm volatile("sqrt.approx.f32 %0, %0;" : "+f"(x))

#define ALU_KERNELS(name, T, seed)                                               \
  extern "C" __global__ void name##_lat(unsigned char *buf, u64 *out, u32 reps) {  \
    T a = (T)(seed), b = (T)(seed), x = (T)gtid();                               \
    u64 t0 = clk();                                                              \
    for (u32 r = 0; r < reps; ++r) {                                             \
      _Pragma("unroll") for (int s = 0; s < STEPS; ++s) OP_##name(x, a, b);      \
    }                                                                            \
    u64 t1 = clk();                                                              \
    record(out, t0, t1);                                                         \
    sink(out, (u64)x);                                                           \
  }                                                                              \
  extern "C" __global__ void name##_flops(unsigned char *buf, u64 *out, u32 reps) { \
    T a = (T)(seed), b = (T)(seed), x[CHAINS];                                   \
    _Pragma("unroll") for (int c = 0; c < CHAINS; ++c) x[c] = (T)(gtid() + c);  \
    __syncthreads();                                                             \
    u64 t0 = clk();                                                              \
    for (u32 r = 0; r < reps; ++r) {                                             \
      _Pragma("unroll") for (int c = 0; c < CHAINS; ++c) OP_##name(x[c], a, b);  \
    }                                                                            \
    __syncthreads();                                                             \
    u64 t1 = clk();                                                              \
    record(out, t0, t1);                                                         \
    T s = x[0];                                                                  \
    _Pragma("unroll") for (int c = 1; c < CHAINS; ++c) s += x[c];                \
    sink(out, (u64)s);                                                           \
  }

ALU_KERNELS(fp32, float, 1.0001f)
ALU_KERNELS(fp64, double, 1.0001)
ALU_KERNELS(fp16, u32, 0x3c003c00u)   // a pair of fp16 ones
ALU_KERNELS(int32, int, 3)
ALU_KERNELS(sfu, float, 2.0f)

// Tensor cores: mma.sync m8n8k4 (the sm_70 HMMA shape), fp16 inputs, fp32
// accumulators. Latency: one warp, each mma depends on the previous one's
// accumulators. Throughput: a full block, CHAINS independent accumulators.
#define MMA(d, a, b)                                                                        \
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 "                          \
               "{%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%0,%1,%2,%3,%4,%5,%6,%7};" \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),   \
                 "+f"(d[6]), "+f"(d[7])                                                    \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]))

extern "C" __global__ void tensor_lat(unsigned char *buf, u64 *out, u32 reps) {
  u32 a[2] = {0x3c003c00u, 0x3c003c00u}, b[2] = {0x3c003c00u, 0x3c003c00u};
  float d[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) MMA(d, a, b);
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, __float_as_uint(d[0] + d[7]));
}

extern "C" __global__ void tensor_flops(unsigned char *buf, u64 *out, u32 reps) {
  u32 a[2] = {0x3c003c00u, 0x3c003c00u}, b[2] = {0x3c003c00u, 0x3c003c00u};
  float d[CHAINS][8] = {};
  __syncthreads();
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) MMA(d[c], a, b);
  }
  __syncthreads();
  u64 t1 = clk();
  record(out, t0, t1);
  float s = 0.f;
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) s += d[c][0];
  sink(out, __float_as_uint(s));
}
