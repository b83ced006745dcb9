#include "icnt/crossbar_config.h"

#include <string>

#include "base/error.h"
#include "config/gpu_config.h"

namespace accelsim::icnt {
namespace {
CrossbarConfig common(const config::GpuConfig& cfg) {
  CrossbarConfig c;
  c.flit_bytes = static_cast<uint32_t>(cfg.icnt_flit_size);
  c.in_buffer_flits = static_cast<uint32_t>(cfg.icnt_in_buffer);
  c.out_buffer_flits = static_cast<uint32_t>(cfg.icnt_out_buffer);
  c.latency = static_cast<uint32_t>(cfg.icnt_latency);
  c.input_lanes = static_cast<uint32_t>(cfg.icnt_input_lanes);
  return c;
}
uint32_t slices(const config::GpuConfig& cfg) {
  return static_cast<uint32_t>(cfg.memory_partitions * cfg.l2_slices_per_partition);
}
}  // namespace

CrossbarConfig request_network(const config::GpuConfig& cfg) {
  CrossbarConfig c = common(cfg);
  c.sources = static_cast<uint32_t>(cfg.sm_count);
  c.destinations = slices(cfg);
  c.validate();
  return c;
}

CrossbarConfig reply_network(const config::GpuConfig& cfg) {
  CrossbarConfig c = common(cfg);
  c.sources = slices(cfg);
  c.destinations = static_cast<uint32_t>(cfg.sm_count);
  c.validate();
  return c;
}

void CrossbarConfig::validate() const {
  if (sources == 0 || destinations == 0) throw ConfigError("sm_count", "crossbar needs >= 1 node per side");
  if (flit_bytes == 0) throw ConfigError("icnt_flit_size", "must be >= 1");
  if (in_buffer_flits == 0) throw ConfigError("icnt_in_buffer", "must be >= 1");
  if (out_buffer_flits == 0) throw ConfigError("icnt_out_buffer", "must be >= 1");
  if (input_lanes == 0) throw ConfigError("icnt_input_lanes", "must be >= 1");
}

}  // namespace accelsim::icnt
