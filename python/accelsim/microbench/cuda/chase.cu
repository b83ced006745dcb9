// Pointer chases: one thread follows a ring of dependent loads, so each
// step costs exactly one load-to-use latency of the level the ring lives in
// (the loop counter work hides under it). FOOTPRINT bytes, STRIDE bytes
// between consecutive ring slots. The same kernels, with the footprint or
// the stride swept by the host, expose cache size, sector and line size and
// associativity: the step cost jumps where the ring stops fitting.
#include "common.cuh"

#ifndef FOOTPRINT
#error "FOOTPRINT (bytes) must be defined"
#endif
#ifndef STRIDE
#error "STRIDE (bytes) must be defined"
#endif
#define SLOTS ((u64)(FOOTPRINT) / (STRIDE))

// Builds the ring: slot i points at slot i + 1 (mod SLOTS).
extern "C" __global__ void chase_init(unsigned char *buf, u64 *out, u32 reps) {
  for (u64 i = gtid(); i < SLOTS; i += gridDim.x * blockDim.x) {
    u64 next = (i + 1) % SLOTS;
    *(u64 *)(buf + i * STRIDE) = (u64)(buf + next * STRIDE);
  }
}

// `warm` steps first (fills the level under test), then `reps` timed steps.
template <bool L1>
__device__ __forceinline__ void chase(unsigned char *buf, u64 *out, u32 warm, u32 reps) {
  const u64 *p = (const u64 *)buf;
  for (u32 i = 0; i < warm; ++i) p = (const u64 *)(L1 ? ld_ca_u64(p) : ld_cg_u64(p));
  u64 t0 = clk();
  for (u32 i = 0; i < reps; ++i) p = (const u64 *)(L1 ? ld_ca_u64(p) : ld_cg_u64(p));
  u64 t1 = clk();
  record(out, t0, t1);
  sink(out, (u64)p);
}

// L1 hit latency: the ring is warmed into L1 (.ca loads).
extern "C" __global__ void l1_lat(unsigned char *buf, u64 *out, u32 reps) {
  chase<true>(buf, out, SLOTS, reps);
}

// L2 hit latency: L1 bypassed (.cg); the warm-up pass leaves the ring in L2.
extern "C" __global__ void l2_lat(unsigned char *buf, u64 *out, u32 reps) {
  chase<false>(buf, out, SLOTS, reps);
}

// DRAM latency: no warm-up and a stride beyond a DRAM page, so every timed
// step is a line in no cache (the host keeps reps <= SLOTS).
extern "C" __global__ void dram_lat(unsigned char *buf, u64 *out, u32 reps) {
  chase<false>(buf, out, 0, reps);
}

// Geometry probes: the host sweeps FOOTPRINT (size, associativity) or
// STRIDE (sector, line) and records the step cost at each point.
extern "C" __global__ void l1_size(unsigned char *buf, u64 *out, u32 reps) {
  chase<true>(buf, out, SLOTS, reps);
}
extern "C" __global__ void l2_size(unsigned char *buf, u64 *out, u32 reps) {
  chase<false>(buf, out, SLOTS, reps);
}
// Fetch granularity: a footprint far beyond the cache, stride swept: steps
// that land in an already fetched sector hit, so the cost reaches the miss
// latency once STRIDE reaches the sector size.
extern "C" __global__ void l1_sector(unsigned char *buf, u64 *out, u32 reps) {
  chase<true>(buf, out, SLOTS, reps);
}
extern "C" __global__ void l2_sector(unsigned char *buf, u64 *out, u32 reps) {
  chase<false>(buf, out, SLOTS, reps);
}
// Allocation granularity: a footprint of twice the cache, stride swept:
// below the line size every line is used whole (2x the capacity: misses);
// at twice the line size only every other line is touched and the ring fits.
extern "C" __global__ void l1_line(unsigned char *buf, u64 *out, u32 reps) {
  chase<true>(buf, out, SLOTS, reps);
}
extern "C" __global__ void l2_line(unsigned char *buf, u64 *out, u32 reps) {
  chase<false>(buf, out, SLOTS, reps);
}
// Associativity: STRIDE = the cache size divided by the set count guess
// (every slot maps to one set); FOOTPRINT swept in STRIDE steps: the ring
// fits while its slot count is at most the number of ways.
extern "C" __global__ void l1_assoc(unsigned char *buf, u64 *out, u32 reps) {
  chase<true>(buf, out, SLOTS, reps);
}
