// CacheParams for the standard instances, from the declared GPU parameters.
#include <algorithm>

#include "base/error.h"
#include "base/named_registry.h"
#include "cache/cache.h"
#include "config/gpu_config.h"

namespace accelsim::cache {
namespace {

struct WritePolicyName {
  const char* name;
  WritePolicy value;
};
constexpr WritePolicyName kWritePolicies[] = {
    {"write_through", WritePolicy::WRITE_THROUGH},
    {"write_back", WritePolicy::WRITE_BACK},
};

struct WriteAllocName {
  const char* name;
  WriteAllocPolicy value;
};
// "allocate" is GPGPU-Sim's naive write-allocate; modelled as fetch-on-write.
// "lazy_fetch_on_read" is GPGPU-Sim's name for write-validate.
constexpr WriteAllocName kWriteAllocs[] = {
    {"no_allocate", WriteAllocPolicy::NO_ALLOCATE},
    {"allocate", WriteAllocPolicy::FETCH_ON_WRITE},
    {"fetch_on_write", WriteAllocPolicy::FETCH_ON_WRITE},
    {"lazy_fetch_on_read", WriteAllocPolicy::WRITE_VALIDATE},
    {"write_validate", WriteAllocPolicy::WRITE_VALIDATE},
};

uint32_t u32(int64_t v) { return static_cast<uint32_t>(v); }

// Instruction and constant caches have no MSHR parameters of their own:
// a few entries suffice for their tiny miss rates (GPGPU-Sim uses similar).
constexpr uint32_t kSmallMshrs = 16;
constexpr uint32_t kSmallMerge = 4;
constexpr uint32_t kSmallMissQueue = 8;

CacheParams read_only(const char* name, int64_t size, int64_t line, int64_t assoc) {
  CacheParams p;
  p.name = name;
  p.size_bytes = size;
  p.line_bytes = u32(line);
  p.sector_bytes = u32(line);  // not sectored
  p.assoc = u32(assoc);
  p.write_policy = WritePolicy::WRITE_THROUGH;
  p.write_alloc = WriteAllocPolicy::NO_ALLOCATE;
  p.mshr_entries = kSmallMshrs;
  p.mshr_max_merge = kSmallMerge;
  p.miss_queue_entries = kSmallMissQueue;
  return p;
}

}  // namespace

WritePolicy parse_write_policy(const std::string& name, const char* key) {
  return find_by_name(std::span<const WritePolicyName>(kWritePolicies), name, key).value;
}

WriteAllocPolicy parse_write_alloc(const std::string& name, const char* key) {
  return find_by_name(std::span<const WriteAllocName>(kWriteAllocs), name, key).value;
}

// The way count scales with the carve-out (sets stay fixed), as the
// adaptive L1/shared split does in hardware.
CacheParams l1d_params(const config::GpuConfig& cfg, int64_t size_bytes, uint32_t stream_slots) {
  const int64_t base_sets = cfg.l1d_size / (cfg.l1d_line * cfg.l1d_assoc);
  if (base_sets <= 0 || size_bytes % (cfg.l1d_line * base_sets))
    throw ConfigError("l1d_size", std::to_string(size_bytes) + " B L1D is not a whole number of ways of " +
                                      std::to_string(base_sets) + " sets");
  CacheParams p;
  p.name = "l1d";
  p.size_bytes = size_bytes;
  p.line_bytes = u32(cfg.l1d_line);
  p.sector_bytes = u32(cfg.l1d_sector);
  p.assoc = u32(size_bytes / (cfg.l1d_line * base_sets));
  p.replacement = cfg.l1d_replacement;
  p.write_policy = parse_write_policy(cfg.l1d_write_policy, "l1d_write_policy");
  p.write_alloc = parse_write_alloc(cfg.l1d_write_allocate, "l1d_write_allocate");
  p.mshr_entries = u32(cfg.l1d_mshrs);
  p.mshr_max_merge = u32(cfg.l1d_mshr_merge);
  p.miss_queue_entries = u32(cfg.l1d_miss_queue);
  p.streaming = cfg.l1d_streaming;
  p.stream_slots = stream_slots;
  return p;
}

CacheParams l2_slice_params(const config::GpuConfig& cfg, uint32_t stream_slots) {
  const int64_t slices = cfg.memory_partitions * cfg.l2_slices_per_partition;
  CacheParams p;
  p.name = "l2";
  p.size_bytes = cfg.l2_size / slices;
  p.line_bytes = u32(cfg.l2_line);
  p.sector_bytes = u32(cfg.l2_sector);
  p.assoc = u32(cfg.l2_assoc);
  p.replacement = cfg.l2_replacement;
  p.set_index = cfg.l2_set_index;
  p.write_policy = WritePolicy::WRITE_BACK;
  p.write_alloc = cfg.l2_write_validate ? WriteAllocPolicy::WRITE_VALIDATE : WriteAllocPolicy::FETCH_ON_WRITE;
  p.mshr_entries = u32(cfg.l2_mshrs);
  p.mshr_max_merge = u32(cfg.l2_mshr_merge);
  p.miss_queue_entries = u32(cfg.l2_miss_queue);
  p.fetch_sectors = u32(std::max<int64_t>(1, cfg.l2_fetch_granularity / std::max<int64_t>(1, cfg.l2_sector)));
  p.stream_slots = stream_slots;
  p.writeback_type = AccessType::L2_WRBK;
  p.write_alloc_type = AccessType::L2_WR_ALLOC_R;
  return p;
}

CacheParams l1i_params(const config::GpuConfig& cfg) {
  return read_only("l1i", cfg.l1i_size, cfg.l1i_line, cfg.l1i_assoc);
}

CacheParams l1c_params(const config::GpuConfig& cfg) {
  return read_only("l1c", cfg.l1c_size, cfg.l1c_line, cfg.l1c_assoc);
}

}  // namespace accelsim::cache
