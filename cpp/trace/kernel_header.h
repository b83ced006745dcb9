// The "-key = value" header of a kernel-N.traceg, up to and including its
// "#traces format" line.
#pragma once
#include <cstdint>

#include "base/line_source.h"
#include "trace/trace_reader.h"

namespace accelsim::trace {

// Where the header's key lines are (for error messages later on).
struct HeaderLines {
  int64_t grid = 0, block = 0, binary_version = 0, tracer_version = 0, format = 0;
};

// Reads the header from `src` (positioned at the start). Throws TraceError for
// a bad value, a missing required key (grid dim, block dim, binary version,
// accelsim tracer version) or a missing "#traces format" line.
KernelInfo read_kernel_header(LineSource& src, HeaderLines& where);

}  // namespace accelsim::trace
