// The per-kernel table's columns, declared once: name and value of each, in
// table order. The bindings turn them into the Python result's columns and
// the CUDA runtime library writes them into its result file, so both carry
// the same table.
#pragma once
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "stats/kernel_record.h"

namespace accelsim::sim {

using ColumnValue = std::variant<uint64_t, double, bool, std::string>;

struct KernelColumn {
  const char* name;
  // `max_warps_per_sm`: the GPU's, for the achieved occupancy
  ColumnValue (*value)(const stats::KernelRecord& k, uint32_t max_warps_per_sm);
};

const std::vector<KernelColumn>& kernel_columns();

}  // namespace accelsim::sim
