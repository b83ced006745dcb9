// A resolved GpuConfig as plain text, for a process that has no Python to
// read YAML (the CUDA runtime library, cudart/): the Python side resolves a
// config (bases, units, imports) and writes this; the C++ side reads it back
// into the same struct. One "key value" line per field, in canonical units:
//
//   accelsim-config 1                      (format and version: first line)
//   name QV100
//   sm_count 80                            (every params.def scalar; reals
//   core_clock 1132                         with 17 significant digits)
//   exec_unit sp 4 4 2 32 sp,fp            (name units latency initiation lanes classes)
//   opcode_unit HMMA tensor
//   shmem_carveouts 0 8192 16384 ...
//
// Unknown keys, malformed values and a missing or newer version line are
// ConfigErrors naming the line; a key not given keeps its default.
#pragma once
#include <string>

#include "config/gpu_config.h"

namespace accelsim::config {

inline constexpr int kConfigTextVersion = 1;

std::string to_text(const GpuConfig& cfg);
// `where` names the text in errors (a file path). Validates the result.
GpuConfig from_text(const std::string& text, const std::string& where);

}  // namespace accelsim::config
