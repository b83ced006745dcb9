#include "stats/counter_family.h"

#include <algorithm>

#include "base/error.h"

namespace accelsim::stats {

std::vector<std::string> index_labels(size_t n) {
  std::vector<std::string> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(std::to_string(i));
  return out;
}

Dim instance_dim(std::string name, size_t n) {
  return Dim{std::move(name), index_labels(n), DimKind::Instance};
}

Dim stream_dim(size_t slots) { return Dim{"stream", index_labels(slots), DimKind::Stream}; }

Dim category_dim(std::string name, std::vector<std::string> labels) {
  return Dim{std::move(name), std::move(labels), DimKind::Category};
}

CounterFamily::CounterFamily(std::string name, std::string component, std::string unit,
                             std::string doc, std::vector<Dim> dims)
    : name_(std::move(name)), component_(std::move(component)), unit_(std::move(unit)),
      doc_(std::move(doc)), dims_(std::move(dims)) {
  // Strides from the innermost dimension out; an empty dimension is a
  // wiring mistake (a counter nobody can increment), so refuse it.
  strides_.assign(dims_.size(), 1);
  size_t total = 1;
  for (size_t i = dims_.size(); i-- > 0;) {
    if (dims_[i].size() == 0) throw Error(name_ + ": dimension '" + dims_[i].name + "' is empty");
    strides_[i] = total;
    total *= dims_[i].size();
    if (dims_[i].kind != DimKind::Stream) continue;
    if (stream_axis_ >= 0) throw Error(name_ + ": more than one stream dimension");
    stream_axis_ = int(i);
  }
  values_.assign(total, 0);
}

size_t CounterFamily::offset(std::initializer_list<size_t> index, bool full) const {
  if (index.size() > dims_.size() || (full && index.size() != dims_.size()))
    throw Error(name_ + ": expected " + std::to_string(dims_.size()) + " indices, got " +
                std::to_string(index.size()));
  size_t off = 0, d = 0;
  for (size_t i : index) {
    if (i >= dims_[d].size())
      throw Error(name_ + ": index " + std::to_string(i) + " out of range for '" + dims_[d].name +
                  "' (size " + std::to_string(dims_[d].size()) + ")");
    off += i * strides_[d++];
  }
  return off;
}

uint64_t* CounterFamily::slice(std::initializer_list<size_t> leading) {
  return values_.data() + offset(leading, false);
}

uint64_t CounterFamily::at(std::initializer_list<size_t> index) const {
  return values_[offset(index, true)];
}

void CounterFamily::reset() { std::fill(values_.begin(), values_.end(), 0); }

}  // namespace accelsim::stats
