// The memory below L1, chosen by the config's memory_model: "detailed"
// (crossbar, L2 slices, DRAM channels, copy engines) or "simple" (fixed
// latencies and bandwidth limits). The GPU holds the result as a MemPort and
// never needs to know which model it is.
#pragma once
#include <memory>
#include <span>

#include "base/mem_port.h"

namespace accelsim::config {
struct GpuConfig;
}

namespace accelsim::mem {

struct MemoryModel {
  const char* name;
  std::unique_ptr<MemPort> (*build)(const config::GpuConfig& cfg);
};

// Known models (registry order).
std::span<const MemoryModel> memory_models();

// Builds the model cfg.memory_model names from its own parameters; an
// unknown name is a ConfigError that lists the known ones.
std::unique_ptr<MemPort> make_memory(const config::GpuConfig& cfg);

}  // namespace accelsim::mem
