// Shared memory: latency (one-thread chase), bandwidth (every thread chases
// its own conflict-free chain) and bank structure (a warp reads with a
// swept word stride; the cost grows with the number of lanes per bank).
#include "common.cuh"

#ifndef SHMEM_WORDS
#error "SHMEM_WORDS (32-bit words of shared memory used) must be defined"
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef BANK_STRIDE
#define BANK_STRIDE 1
#endif

extern "C" __global__ void shared_lat(unsigned char *buf, u64 *out, u32 reps) {
  __shared__ u32 s[SHMEM_WORDS];
  if (threadIdx.x == 0)
    for (u32 i = 0; i < SHMEM_WORDS; ++i) s[i] = (i + 1) % SHMEM_WORDS;
  __syncthreads();
  u32 p = 0;
  u64 t0 = clk();
  for (u32 i = 0; i < reps; ++i) p = s[p];
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, p);
}

// Each thread: i = s[i] with s[i] = (i + blockDim) % n, so a warp's 32 lanes
// read 32 consecutive words (one per bank) on every step.
template <typename T>
__device__ __forceinline__ void shared_stream(u64 *out, u32 reps) {
  __shared__ T s[SHMEM_WORDS * 4 / sizeof(T)];
  const u32 n = SHMEM_WORDS * 4 / sizeof(T);
  for (u32 i = threadIdx.x; i < n; i += blockDim.x) s[i] = (T)((i + blockDim.x) % n);
  __syncthreads();
  T i = (T)threadIdx.x;
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) {
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) i = s[(u32)i];
  }
  __syncthreads();
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, (u64)i);
}

extern "C" __global__ void shared_bw(unsigned char *buf, u64 *out, u32 reps) {
  shared_stream<u32>(out, reps);
}
extern "C" __global__ void shared_bw_64(unsigned char *buf, u64 *out, u32 reps) {
  shared_stream<u64>(out, reps);
}

// Lane l reads word (l * BANK_STRIDE) % SHMEM_WORDS: stride 1 is conflict
// free; with B banks, stride B puts all 32 lanes in one bank.
extern "C" __global__ void shared_banks(unsigned char *buf, u64 *out, u32 reps) {
  __shared__ u32 s[SHMEM_WORDS];
  for (u32 i = threadIdx.x; i < SHMEM_WORDS; i += blockDim.x) s[i] = 0;
  __syncthreads();
  u32 idx = (threadIdx.x * BANK_STRIDE) % SHMEM_WORDS;
  u32 acc = 0;
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) {
    acc += s[(idx + acc) % SHMEM_WORDS];  // acc stays 0: same address, kept dependent
  }
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, acc);
}
