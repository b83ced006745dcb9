#include "stats/kernel_columns.h"

namespace accelsim::stats {
namespace {
#define ACCELSIM_COLUMN_NAME(column, value, doc) KernelColumn{#column, doc},
constexpr KernelColumn kColumns[] = {ACCELSIM_KERNEL_COLUMNS(ACCELSIM_COLUMN_NAME)};
#undef ACCELSIM_COLUMN_NAME
}  // namespace

std::span<const KernelColumn> kernel_columns() { return kColumns; }

}  // namespace accelsim::stats
