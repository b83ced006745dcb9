// A workload as the stream scheduler sees it: kernels and copies in command
// order, each kernel with its header (id, name, stream) read up front, so the
// run knows its streams (and sizes their counter slots) before it starts.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/kernel_source.h"
#include "isa/isa_table.h"
#include "trace/trace_reader.h"

namespace accelsim::sim {

struct WorkItem {
  enum class Kind { Kernel, MemcpyHtoD, MemcpyDtoH };
  Kind kind = Kind::Kernel;
  trace::KernelInfo info;                  // Kernel: its header
  std::string path;                        // Kernel from a trace: opened at launch
  std::unique_ptr<KernelSource> source;    // Kernel given in memory
  uint32_t slot = 0;                       // Kernel, async copy: stream slot (dense per stream)
  uint64_t address = 0, bytes = 0;         // copies: device address, size
  // Copies: false = synchronous (cudaMemcpy: waits for all earlier work,
  // and later work waits for it); true = on stream `stream`
  // (cudaMemcpyAsync: ordered with that stream's kernels and copies only).
  bool async = false;
  uint64_t stream = 0;
  // Copies: called as the copy starts, i.e. after every command it waits
  // for (PTX mode moves the bytes then, so a copy sees what the kernels
  // before it on its stream wrote). Runs on the simulating thread.
  std::function<void()> on_start;
  bool is_copy() const { return kind != Kind::Kernel; }
  bool to_host() const { return kind == Kind::MemcpyDtoH; }
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
// (PTX mode: copies either way between launches, synchronous or on streams).
Workload workload_from_items(std::vector<WorkItem> items);

// The item's kernel source: opened from its trace, or handed over.
std::unique_ptr<KernelSource> open_kernel(WorkItem& item, const isa::IsaRegistry* isa);

}  // namespace accelsim::sim
