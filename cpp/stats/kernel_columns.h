// The per-kernel table's columns, declared once: each column's name, how its
// value is read from a KernelRecord `k` (`max_warps`: warp slots per SM, for
// the achieved occupancy), and what it means. kernel_columns() is the table
// built from the list: the bindings turn it into the Python result's columns
// and the CUDA runtime library writes it into its result file, so both carry
// the same table. A new column is one line here.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <variant>

#include "stats/kernel_record.h"

// X(column, value, doc)
#define ACCELSIM_KERNEL_COLUMNS(X)                                                                      \
  X(id, k.id, "kernel id (the N of kernel-N.traceg)")                                                   \
  X(name, k.name, "kernel name (mangled)")                                                              \
  X(stream, k.stream, "CUDA stream id")                                                                 \
  X(stream_slot, k.stream_slot, "dense id of the stream in the run's statistics")                      \
  X(skipped, k.skipped, "never simulated (status not_selected or not_reached)")                        \
  X(status, ::accelsim::stats::status_name(k.status), "simulated | sampled | cut_off | not_reached | not_selected") \
  X(launch_cycle, k.launch_cycle, "core cycle the launch reached the GPU")                             \
  X(start_cycle, k.start_cycle, "first cycle a CTA could start (after the launch latency)")            \
  X(first_cta_cycle, k.first_cta_cycle, "cycle the first CTA landed on an SM")                         \
  X(end_cycle, k.end_cycle, "cycle the last CTA retired")                                               \
  X(cycles, k.cycles(), "end_cycle - launch_cycle")                                                     \
  X(sm_elapsed_cycles, k.sm_elapsed_cycles(), "end_cycle - first_cta_cycle: the kernel's time on the SMs") \
  X(launch_latency_cycles, k.launch_latency_cycles(), "start_cycle - launch_cycle")                      \
  X(warp_instructions, k.sm.warp_insts, "warp instructions issued")                                    \
  X(thread_instructions, k.sm.thread_insts, "thread instructions issued")                              \
  X(ipc, k.ipc(), "warp instructions per cycle")                                                        \
  X(occupancy, k.achieved_occupancy(max_warps), "achieved occupancy (resident warps / warp slots)")     \
  X(theoretical_occupancy, k.theoretical_occupancy, "occupancy the limits allow")                       \
  X(ctas, k.grid_ctas, "CTAs in the grid")                                                              \
  X(simulated_ctas, k.simulated_ctas, "CTAs simulated (fewer when intra-kernel sampling projects the rest)") \
  X(simulated_end_cycle, k.simulated_end_cycle, "cycle the simulated part ended (sampled kernels)")     \
  X(cycles_bound, k.cycles_bound, "95% bound on a sampled kernel's projected cycles")                   \
  X(threads_per_cta, k.threads_per_cta, "threads per CTA")                                              \
  X(ctas_per_sm, k.ctas_per_sm, "resident CTAs per SM (occupancy limit)")                               \
  X(occupancy_limiter, k.occupancy_limiter, "threads | warps | ctas | registers | shmem")               \
  X(trace_warnings, k.trace_warnings, "deviations of its trace that were read anyway")                  \
  X(l1d_size, k.l1d_size, "L1D bytes after the adaptive split")                                         \
  X(mem_instructions, k.sm.mem_insts, "warp memory instructions")                                       \
  X(l1d_hits, k.sm.l1d_hits, "sector reads served by L1D")                                              \
  X(l1d_misses, k.sm.l1d_misses, "sector reads sent below L1D (incl. merged)")                          \
  X(l1d_mshr_merges, k.sm.l1d_mshr_merges, "sector misses merged into a fetch in flight")              \
  X(l1d_writes, k.sm.l1d_writes, "sector writes")                                                       \
  X(l1d_bypass, k.sm.l1d_bypass, "sector reads that skipped L1D")                                       \
  X(l1d_reservation_fails, k.sm.l1d_reservation_fails, "L1D accesses retried")                          \
  X(shmem_accesses, k.sm.shmem_accesses, "warp shared-memory instructions")                            \
  X(shmem_bank_cycles, k.sm.shmem_bank_cycles, "cycles they took (bank conflicts included)")            \
  X(const_accesses, k.sm.const_accesses, "constant-cache accesses")                                     \
  X(icache_misses, k.sm.icache_misses, "instruction-cache misses")                                      \
  X(l2_read_hits, k.l2_read_hits, "L2 sector reads that hit")                                           \
  X(l2_read_misses, k.l2_read_misses, "L2 sector reads that went to DRAM")                              \
  X(l2_writes, k.l2_writes, "L2 sector writes")                                                         \
  X(dram_reads, k.dram_reads, "DRAM reads (sectors, or bursts with the detailed model)")                \
  X(dram_writes, k.dram_writes, "DRAM writes (detailed model)")                                         \
  X(dram_activates, k.dram_activates, "DRAM row activations (detailed model)")                          \
  X(dram_row_hits, k.dram_row_hits, "DRAM column commands to an open row (detailed model)")             \
  X(dram_row_misses, k.dram_row_misses, "DRAM column commands that needed an activation")               \
  X(active_sm_cycles, k.sm.active_cycles, "SM cycles with a resident CTA (summed over SMs)")            \
  X(sm_ticks, k.sm.ticks, "SM cycles actually ticked (summed over SMs)")

namespace accelsim::stats {

using ColumnValue = std::variant<uint64_t, double, bool, std::string>;

struct KernelColumn {
  const char* name;
  const char* doc;
  ColumnValue (*value)(const KernelRecord& k, uint32_t max_warps);
};

// Every column, in table order.
std::span<const KernelColumn> kernel_columns();

}  // namespace accelsim::stats
