#include "mem/memory_model.h"

#include "base/named_registry.h"
#include "config/gpu_config.h"
#include "mem/detailed_memory.h"
#include "mem/simple_memory.h"

namespace accelsim::mem {
namespace {

std::unique_ptr<MemPort> detailed(const config::GpuConfig& cfg) {
  return std::make_unique<DetailedMemory>(detailed_memory_params(cfg));
}

std::unique_ptr<MemPort> simple(const config::GpuConfig& cfg) {
  return std::make_unique<SimpleMemory>(simple_memory_params(cfg));
}

constexpr MemoryModel kModels[] = {{"simple", simple}, {"detailed", detailed}};

}  // namespace

std::span<const MemoryModel> memory_models() { return kModels; }

std::unique_ptr<MemPort> make_memory(const config::GpuConfig& cfg) {
  return find_by_name(memory_models(), cfg.memory_model, "memory_model").build(cfg);
}

}  // namespace accelsim::mem
