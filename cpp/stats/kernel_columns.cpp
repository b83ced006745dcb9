#include "stats/kernel_columns.h"

#include <type_traits>

namespace accelsim::stats {
namespace {

// Each column's value as one of the table's four types.
template <class T>
ColumnValue column_value(const T& v) {
  if constexpr (std::is_same_v<T, bool>)
    return v;
  else if constexpr (std::is_floating_point_v<T>)
    return double(v);
  else if constexpr (std::is_integral_v<T>)
    return uint64_t(v);
  else
    return std::string(v);
}

#define ACCELSIM_COLUMN(column, value, doc)                                           \
  KernelColumn{#column, doc, [](const KernelRecord& k, [[maybe_unused]] uint32_t max_warps) { \
                 return column_value(value);                                           \
               }},
const KernelColumn kColumns[] = {ACCELSIM_KERNEL_COLUMNS(ACCELSIM_COLUMN)};
#undef ACCELSIM_COLUMN

}  // namespace

std::span<const KernelColumn> kernel_columns() { return kColumns; }

}  // namespace accelsim::stats
