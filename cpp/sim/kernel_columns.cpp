#include "sim/kernel_columns.h"

namespace accelsim::sim {

namespace {
using stats::KernelRecord;
}  // namespace

const std::vector<KernelColumn>& kernel_columns() {
  // the lambdas convert to plain function pointers (no captures)
  static const std::vector<KernelColumn> columns = {
      {"id", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.id)); }},
      {"name", [](const KernelRecord& k, uint32_t) { return ColumnValue(std::string(k.name)); }},
      {"stream", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.stream)); }},
      {"stream_slot", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.stream_slot)); }},
      {"skipped", [](const KernelRecord& k, uint32_t) { return ColumnValue(bool(k.skipped)); }},
      {"status",
       [](const KernelRecord& k, uint32_t) { return ColumnValue(std::string(stats::status_name(k.status))); }},
      {"launch_cycle", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.launch_cycle)); }},
      {"start_cycle", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.start_cycle)); }},
      {"first_cta_cycle", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.first_cta_cycle)); }},
      {"end_cycle", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.end_cycle)); }},
      {"cycles", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.cycles())); }},
      {"sm_elapsed_cycles",
       [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm_elapsed_cycles())); }},
      {"launch_latency_cycles",
       [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.launch_latency_cycles())); }},
      {"warp_instructions", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.warp_insts)); }},
      {"thread_instructions",
       [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.thread_insts)); }},
      {"ipc", [](const KernelRecord& k, uint32_t) { return ColumnValue(double(k.ipc())); }},
      {"occupancy",
       [](const KernelRecord& k, uint32_t max_warps) { return ColumnValue(double(k.achieved_occupancy(max_warps))); }},
      {"theoretical_occupancy",
       [](const KernelRecord& k, uint32_t) { return ColumnValue(double(k.theoretical_occupancy)); }},
      {"ctas", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.grid_ctas)); }},
      {"simulated_ctas", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.simulated_ctas)); }},
      {"simulated_end_cycle",
       [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.simulated_end_cycle)); }},
      {"cycles_bound", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.cycles_bound)); }},
      {"threads_per_cta", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.threads_per_cta)); }},
      {"ctas_per_sm", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.ctas_per_sm)); }},
      {"occupancy_limiter",
       [](const KernelRecord& k, uint32_t) { return ColumnValue(std::string(k.occupancy_limiter)); }},
      {"trace_warnings", [](const KernelRecord& k, uint32_t) { return ColumnValue(std::string(k.trace_warnings)); }},
      {"l1d_size", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.l1d_size)); }},
      {"mem_instructions", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.mem_insts)); }},
      {"l1d_hits", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.l1d_hits)); }},
      {"l1d_misses", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.l1d_misses)); }},
      {"l1d_mshr_merges",
       [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.l1d_mshr_merges)); }},
      {"l1d_writes", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.l1d_writes)); }},
      {"l1d_bypass", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.l1d_bypass)); }},
      {"l1d_reservation_fails",
       [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.l1d_reservation_fails)); }},
      {"shmem_accesses", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.shmem_accesses)); }},
      {"shmem_bank_cycles",
       [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.shmem_bank_cycles)); }},
      {"const_accesses", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.const_accesses)); }},
      {"icache_misses", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.icache_misses)); }},
      {"l2_read_hits", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.l2_read_hits)); }},
      {"l2_read_misses", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.l2_read_misses)); }},
      {"l2_writes", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.l2_writes)); }},
      {"dram_reads", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.dram_reads)); }},
      {"dram_writes", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.dram_writes)); }},
      {"dram_activates", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.dram_activates)); }},
      {"dram_row_hits", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.dram_row_hits)); }},
      {"dram_row_misses", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.dram_row_misses)); }},
      {"active_sm_cycles", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.active_cycles)); }},
      {"sm_ticks", [](const KernelRecord& k, uint32_t) { return ColumnValue(uint64_t(k.sm.ticks)); }},
  };
  return columns;
}

}  // namespace accelsim::sim
