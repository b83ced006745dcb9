// Run options as Python hands them over (checked in Python first).
#pragma once
#include <pybind11/pybind11.h>

#include "sim/run_result.h"

namespace accelsim::bindings {
// {tolerance, window, min_waves[, warm_tail]} (accelsim.IntraKernelSampling.core_options).
sim::IntraSampling intra_from_python(const pybind11::dict& d);
}  // namespace accelsim::bindings
