// GpuConfig <-> Python dict of canonical values (bytes, cycles, MHz, ...).
#pragma once
#include <pybind11/pybind11.h>

#include "config/gpu_config.h"

namespace accelsim::bindings {
config::GpuConfig config_from_dict(const pybind11::dict& d);
pybind11::dict config_to_dict(const config::GpuConfig& cfg);
}  // namespace accelsim::bindings
