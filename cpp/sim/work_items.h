// A workload as the stream scheduler sees it: kernels and copies in command
// order, each kernel with its header (id, name, stream) read up front, so the
// run knows its streams (and sizes their counter slots) before it starts.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/kernel_source.h"
#include "isa/isa_table.h"
#include "trace/trace_reader.h"

namespace accelsim::sim {

struct WorkItem {
  enum class Kind { Kernel, MemcpyHtoD };
  Kind kind = Kind::Kernel;
  trace::KernelInfo info;                  // Kernel: its header
  std::string path;                        // Kernel from a trace: opened at launch
  std::unique_ptr<KernelSource> source;    // Kernel given in memory
  uint32_t slot = 0;                       // Kernel: stream slot (dense per stream)
  uint64_t address = 0, bytes = 0;         // MemcpyHtoD
};

struct Workload {
  std::vector<WorkItem> items;
  std::vector<uint64_t> streams;  // stream id of each slot, first-seen order
  size_t kernels = 0;
};

// A kernelslist.g (or one kernel trace): headers are read now.
Workload workload_from_commands(const std::string& path);
// Kernels given directly, in order.
Workload workload_from_sources(std::vector<std::unique_ptr<KernelSource>>& kernels);
// Kernels (with their source) and copies given directly, in command order
// (PTX mode: host-to-device copies between launches).
Workload workload_from_items(std::vector<WorkItem> items);

// The item's kernel source: opened from its trace, or handed over.
std::unique_ptr<KernelSource> open_kernel(WorkItem& item, const isa::IsaRegistry* isa);

}  // namespace accelsim::sim
