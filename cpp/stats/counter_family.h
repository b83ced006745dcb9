// A counter family: one named statistic kept as a dense, row-major array of
// uint64 with named dimensions, e.g. l2.accesses[slice, stream, access_type,
// outcome]. Event sites hold a raw pointer into the array (taken once at
// wiring time) and increment by index arithmetic: no maps, strings or
// allocation per event. The array never changes size after construction, so
// those pointers stay valid for the family's lifetime.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace accelsim::stats {

// What a dimension means for reductions:
//   Instance  which copy of a component (sm, slice, channel): summed when a
//             per-kernel or per-stream number is formed;
//   Stream    the stream slot that caused the event (at most one per family);
//   Category  what kind of event (access type, outcome, stall reason): kept.
enum class DimKind : uint8_t { Instance, Stream, Category };

struct Dim {
  std::string name;                 // "sm", "stream", "access_type", ...
  std::vector<std::string> labels;  // one per index; size() is the extent
  DimKind kind = DimKind::Category;
  size_t size() const { return labels.size(); }
};

// Labels "0", "1", ... for an Instance or Stream dimension of extent n.
std::vector<std::string> index_labels(size_t n);
Dim instance_dim(std::string name, size_t n);
Dim stream_dim(size_t slots);
Dim category_dim(std::string name, std::vector<std::string> labels);

class CounterFamily {
 public:
  // `component` is where it lives ("l2", "dram", "sm"); `name` is unique in a
  // registry ("l2.accesses"); `unit` says what one count is ("sector").
  CounterFamily(std::string name, std::string component, std::string unit, std::string doc,
                std::vector<Dim> dims);

  const std::string& name() const { return name_; }
  const std::string& component() const { return component_; }
  const std::string& unit() const { return unit_; }
  const std::string& doc() const { return doc_; }
  const std::vector<Dim>& dims() const { return dims_; }
  // Elements between successive indices of dimension d (row-major).
  size_t stride(size_t d) const { return strides_[d]; }
  size_t size() const { return values_.size(); }
  // Position of the Stream dimension, or -1 when the family has none.
  int stream_axis() const { return stream_axis_; }

  // The live counters; event sites write through data().
  uint64_t* data() { return values_.data(); }
  std::span<const uint64_t> values() const { return values_; }
  // Start of the sub-array with leading indices fixed (e.g. one SM's slice).
  uint64_t* slice(std::initializer_list<size_t> leading);
  // One element by full index (checked; not for the hot path).
  uint64_t at(std::initializer_list<size_t> index) const;
  void reset();

 private:
  size_t offset(std::initializer_list<size_t> index, bool full) const;

  std::string name_, component_, unit_, doc_;
  std::vector<Dim> dims_;
  std::vector<size_t> strides_;
  std::vector<uint64_t> values_;
  int stream_axis_ = -1;
};

}  // namespace accelsim::stats
