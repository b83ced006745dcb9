// Memory-system behaviour that is not a plain latency or bandwidth: write
// policies, coalescing granularity, L1 streaming and outstanding misses.
// Each is inferred from time: a policy decides whether the next access hits.
#include "common.cuh"

#ifndef STRIDE
#define STRIDE 32
#endif
#ifndef FOOTPRINT
#define FOOTPRINT (1 << 20)
#endif
#ifndef LINES
#define LINES 64
#endif

__device__ __forceinline__ void st_u64(u64 *p, u64 v) {
  asm volatile("st.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

// One thread, `reps` rounds over LINES lines: store to a line, then load
// the same address. Write-back / write-allocate L1: the load hits (L1 hit
// latency per round); write-through without allocation: it misses to L2.
extern "C" __global__ void l1_write_policy(unsigned char *buf, u64 *out, u32 reps) {
  u64 acc = 0;
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) {
    u64 *p = (u64 *)(buf + (u64)(r % LINES) * 128);
    st_u64(p, acc);
    acc += ld_ca_u64(p);
  }
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, acc);
}

// Partial-sector write then read of the same bytes, L1 bypassed, on lines
// never touched before: write-validate / write-allocate L2 serves the read
// (L2 hit latency); a no-allocate L2 sends it to DRAM.
extern "C" __global__ void l2_write_policy(unsigned char *buf, u64 *out, u32 reps) {
  u64 acc = 0;
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) {
    u64 *p = (u64 *)(buf + (u64)r * 4096);
    st_u64(p, acc);
    acc += ld_cg_u64(p);
  }
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, acc);
}

// One warp, lane l loads address l * STRIDE (swept by the host): the cost of
// a warp load grows with the number of sectors (or lines) it touches, so the
// knee gives the coalescing granularity.
extern "C" __global__ void coalescing_grain(unsigned char *buf, u64 *out, u32 reps) {
  u64 acc = 0;
  const u64 *p = (const u64 *)(buf + (u64)threadIdx.x * STRIDE);
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) {
    acc += ld_cg_u64((const u64 *)((const unsigned char *)p + (acc & 1)));
    p = (const u64 *)((const unsigned char *)p + 32 * STRIDE);
  }
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, acc);
}

// L1 streaming: a block streams a footprint twice the L1 through .ca loads;
// an L1 that allocates on miss without reserving lines keeps the miss
// bandwidth of L2 (the time per line stays the L2 streaming time) while a
// blocking allocate-on-miss L1 serialises on its lines.
extern "C" __global__ void l1_streaming(unsigned char *buf, u64 *out, u32 reps) {
  const float *a = (const float *)buf;
  const u64 n = (u64)(FOOTPRINT) / 4;
  float acc = 0.f;
  __syncthreads();
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) {
    float v;
    asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(a + ((u64)r * blockDim.x + threadIdx.x) % n));
    acc += v;
  }
  __syncthreads();
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, __float_as_uint(acc));
}

// Outstanding misses: each of the block's threads issues one independent
// miss per round to its own line (INFLIGHT threads, swept by the host); the
// round time stays at one DRAM latency until the MSHRs run out.
extern "C" __global__ void l1_mshr(unsigned char *buf, u64 *out, u32 reps) {
  u64 acc = 0;
  __syncthreads();
  u64 t0 = clk();
  for (u32 r = 0; r < reps; ++r) {
    const u64 *p = (const u64 *)(buf + ((u64)r * blockDim.x + threadIdx.x) * 4096);
    acc += ld_ca_u64(p);
    __syncthreads();
  }
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, acc);
}
