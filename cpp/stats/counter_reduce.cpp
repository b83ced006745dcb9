#include "stats/counter_reduce.h"

#include "base/error.h"

namespace accelsim::stats {

size_t category_size(const CounterFamily& f) {
  size_t n = 1;
  for (const Dim& d : f.dims())
    if (d.kind == DimKind::Category) n *= d.size();
  return n;
}

namespace {

// Walks every element once, decomposing its flat index into per-dimension
// indices with an odometer (no divisions), and adds it to its output cell.
// `row_of(stream_index)` picks the output row (or -1 to drop the element).
template <class RowOf>
void accumulate(const CounterFamily& f, std::span<const uint64_t> values, size_t row_size,
                RowOf row_of, std::vector<uint64_t>& out) {
  if (values.size() != f.size()) throw Error(f.name() + ": values do not match the family");
  const auto& dims = f.dims();
  std::vector<size_t> idx(dims.size(), 0), out_stride(dims.size(), 0);
  size_t s = 1;
  for (size_t d = dims.size(); d-- > 0;)
    if (dims[d].kind == DimKind::Category) out_stride[d] = s, s *= dims[d].size();
  int axis = f.stream_axis();
  for (size_t i = 0; i < values.size(); ++i) {
    long row = row_of(axis < 0 ? 0 : idx[size_t(axis)]);
    if (row >= 0) {
      size_t cell = size_t(row) * row_size;
      for (size_t d = 0; d < dims.size(); ++d) cell += idx[d] * out_stride[d];
      out[cell] += values[i];
    }
    for (size_t d = dims.size(); d-- > 0;) {  // odometer step
      if (++idx[d] < dims[d].size()) break;
      idx[d] = 0;
    }
  }
}

// The usual layout, [instances..., stream, categories...]: each (instance,
// slot) block of categories is contiguous, so the sum is a strided add.
bool blocked_layout(const CounterFamily& f) {
  int axis = f.stream_axis();
  const auto& dims = f.dims();
  for (size_t d = 0; d < dims.size(); ++d) {
    bool before = axis >= 0 && int(d) < axis;
    if (int(d) == axis) continue;
    if ((dims[d].kind == DimKind::Instance) != before) return false;
  }
  return axis >= 0;
}

void blocked_sum(const CounterFamily& f, std::span<const uint64_t> values, int slot,
                 std::vector<uint64_t>& out) {
  const size_t n = out.size(), slots = f.dims()[size_t(f.stream_axis())].size();
  const size_t first = slot < 0 ? 0 : size_t(slot), last = slot < 0 ? slots : first + 1;
  for (size_t base = 0; base < values.size(); base += slots * n)
    for (size_t s = first; s < last; ++s)
      for (size_t c = 0; c < n; ++c) out[c] += values[base + s * n + c];
}

}  // namespace

std::vector<uint64_t> reduce_to_categories(const CounterFamily& f, std::span<const uint64_t> values,
                                           int slot) {
  size_t n = category_size(f);
  std::vector<uint64_t> out(n, 0);
  if (values.size() != f.size()) throw Error(f.name() + ": values do not match the family");
  if (blocked_layout(f)) return blocked_sum(f, values, slot, out), out;
  bool all = slot == kAllStreams || f.stream_axis() < 0;
  accumulate(f, values, n, [&](size_t s) { return all || long(s) == slot ? 0L : -1L; }, out);
  return out;
}

std::vector<uint64_t> reduce_per_stream(const CounterFamily& f, std::span<const uint64_t> values,
                                        size_t stream_slots) {
  size_t n = category_size(f);
  std::vector<uint64_t> out(n * stream_slots, 0);
  accumulate(f, values, n, [](size_t s) { return long(s); }, out);
  return out;
}

}  // namespace accelsim::stats
