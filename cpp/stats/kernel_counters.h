// Per-kernel counters: for every family, one row per kernel holding what the
// kernel's stream slot counted between its launch and its end, summed over
// instances (category dimensions kept). Kernels of one stream run in order, so
// that stream's difference over a kernel's lifetime is the kernel's own work,
// even while kernels of other streams overlap it.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "stats/counter_registry.h"

namespace accelsim::stats {

class KernelCounters {
 public:
  // What one kernel's stream had counted when it launched.
  struct Mark {
    uint32_t slot = 0;
    std::vector<std::vector<uint64_t>> at_start;  // per family, category-reduced
  };

  explicit KernelCounters(const CounterRegistry& reg);

  // A new all-zero row (a launched or a skipped kernel); returns its index.
  size_t add_row();
  size_t rows() const { return rows_; }
  Mark begin(uint32_t slot) const;
  // Row `row` = now - at_start for the mark's slot.
  void finish(size_t row, const Mark& mark);

  // Appends a copy of `from`'s row `row` (a registry with the same families).
  void copy_row(const KernelCounters& from, size_t row);

  // [rows x category_size(family i)], row-major.
  std::span<const uint64_t> family_rows(size_t i) const { return data_[i]; }
  const CounterRegistry& registry() const { return reg_; }

 private:
  std::vector<uint64_t> slot_totals(size_t family, uint32_t slot) const;

  const CounterRegistry& reg_;
  std::vector<size_t> width_;                // category_size per family
  std::vector<std::vector<uint64_t>> data_;  // per family
  size_t rows_ = 0;
};

}  // namespace accelsim::stats
