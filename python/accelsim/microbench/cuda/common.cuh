// Shared by every accelsim microbenchmark kernel.
//
// Calling convention (the host side in accelsim/tune/driver.py relies on it):
//   extern "C" __global__ void NAME(unsigned char *buf, u64 *out, u32 reps)
// `buf` is the benchmark's buffer (BUF_BYTES, sized by the declaration),
// `reps` the timed repetitions. Thread 0 of each block writes the block's
// start and stop clock to out[2*block] and out[2*block+1]; every thread
// writes a value that depends on all its timed work to
// out[2*gridDim.x + global thread id], so the compiler cannot drop the work.
// Sizes arrive as -D defines generated from the one Python declaration.
#pragma once

typedef unsigned long long u64;
typedef unsigned int u32;

__device__ __forceinline__ u64 clk() {
  u64 t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

__device__ __forceinline__ u32 gtid() { return blockIdx.x * blockDim.x + threadIdx.x; }

__device__ __forceinline__ void record(u64 *out, u64 start, u64 stop) {
  if (threadIdx.x == 0) {
    out[2 * blockIdx.x] = start;
    out[2 * blockIdx.x + 1] = stop;
  }
}

__device__ __forceinline__ void sink(u64 *out, u64 value) { out[2 * gridDim.x + gtid()] = value; }

// Loads with an explicit cache operator, so the level under test is chosen
// by the benchmark, not by the compiler's defaults.
__device__ __forceinline__ u64 ld_ca_u64(const u64 *p) {
  u64 v;
  asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ u64 ld_cg_u64(const u64 *p) {
  u64 v;
  asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
