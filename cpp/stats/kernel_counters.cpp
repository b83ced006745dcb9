#include "stats/kernel_counters.h"

#include <algorithm>

#include "base/error.h"
#include "stats/counter_reduce.h"

namespace accelsim::stats {

KernelCounters::KernelCounters(const CounterRegistry& reg) : reg_(reg) {
  for (size_t i = 0; i < reg.size(); ++i) width_.push_back(category_size(reg.family(i)));
  data_.resize(reg.size());
}

size_t KernelCounters::add_row() {
  if (data_.size() != reg_.size()) throw Error("families added after the kernel table was built");
  for (size_t i = 0; i < data_.size(); ++i) data_[i].resize(data_[i].size() + width_[i], 0);
  return rows_++;
}

std::vector<uint64_t> KernelCounters::slot_totals(size_t family, uint32_t slot) const {
  const CounterFamily& f = reg_.family(family);
  return reduce_to_categories(f, f.values(), int(slot));
}

KernelCounters::Mark KernelCounters::begin(uint32_t slot) const {
  Mark m;
  m.slot = slot;
  for (size_t i = 0; i < reg_.size(); ++i) m.at_start.push_back(slot_totals(i, slot));
  return m;
}

void KernelCounters::finish(size_t row, const Mark& mark) {
  if (row >= rows_) throw Error("kernel row out of range");
  for (size_t i = 0; i < data_.size(); ++i) {
    std::vector<uint64_t> now = slot_totals(i, mark.slot);
    uint64_t* out = data_[i].data() + row * width_[i];
    for (size_t c = 0; c < width_[i]; ++c) out[c] = now[c] - mark.at_start[i][c];
  }
}

void KernelCounters::copy_row(const KernelCounters& from, size_t row) {
  if (from.width_ != width_ || row >= from.rows_) throw Error("kernel row copied between different tables");
  const size_t r = add_row();
  for (size_t i = 0; i < data_.size(); ++i)
    std::copy_n(from.data_[i].data() + row * width_[i], width_[i], data_[i].data() + r * width_[i]);
}

}  // namespace accelsim::stats
