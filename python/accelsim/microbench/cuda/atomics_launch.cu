// Atomics and launch overheads.
#include "common.cuh"

#ifndef FOOTPRINT
#define FOOTPRINT (1 << 20)
#endif

// Latency: one thread, each atomicAdd's address depends on the previous
// one's return value (which stays 0: the added value is 0).
extern "C" __global__ void atomic_lat(unsigned char *buf, u64 *out, u32 reps) {
  u32 *a = (u32 *)buf;
  u32 old = 0;
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) old = atomicAdd(a + old, 0u);
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, old);
}

// Throughput without conflicts: every thread adds to its own word.
extern "C" __global__ void atomic_bw(unsigned char *buf, u64 *out, u32 reps) {
  u32 *a = (u32 *)buf;
  u32 acc = 0;
  __syncthreads();
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) acc += atomicAdd(a + gtid() % ((FOOTPRINT) / 4), 1u);
  __syncthreads();
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, acc);
}

// Throughput with every thread of the grid on one word.
extern "C" __global__ void atomic_bw_conflict(unsigned char *buf, u64 *out, u32 reps) {
  u32 *a = (u32 *)buf;
  u32 acc = 0;
  __syncthreads();
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) acc += atomicAdd(a, 1u);
  __syncthreads();
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, acc);
}

// Kernel launch latency: an empty kernel; the host times `reps` back-to-back
// launches with events and converts to core cycles with the clock rate.
extern "C" __global__ void kernel_lat(unsigned char *buf, u64 *out, u32 reps) {}

// CTA launch latency: many more one-warp blocks than fit at once; each
// records its start on its SM, so the gap between a block's retirement and
// the next block's start on the same SM is the CTA launch cost.
extern "C" __global__ void cta_lat(unsigned char *buf, u64 *out, u32 reps) {
  u64 t0 = clk();
  u32 smid;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, smid);
}
