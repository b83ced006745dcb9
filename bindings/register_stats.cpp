// accelsim._core.RunStats: a run's counter families as read-only, zero-copy
// NumPy arrays. Every array's base is the RunStats Python object, which holds
// the C++ owner, so a view outlives the result object it came from safely.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "stats/counter_reduce.h"
#include "stats/run_stats.h"

namespace py = pybind11;
using accelsim::stats::CounterFamily;
using accelsim::stats::Dim;
using accelsim::stats::DimKind;
using accelsim::stats::RunStats;

namespace {

const char* kind_name(DimKind k) {
  switch (k) {
    case DimKind::Instance: return "instance";
    case DimKind::Stream: return "stream";
    default: return "category";
  }
}

size_t family_index(const RunStats& s, const std::string& name) {
  for (size_t i = 0; i < s.registry.size(); ++i)
    if (s.registry.family(i).name() == name) return i;
  throw py::key_error("no counter family '" + name + "'");
}

// A read-only array over `data` with `shape` (C order); `owner` is its base.
py::array readonly_view(const uint64_t* data, const std::vector<py::ssize_t>& shape,
                        py::handle owner) {
  std::vector<py::ssize_t> strides(shape.size());
  py::ssize_t step = sizeof(uint64_t);
  for (size_t i = shape.size(); i-- > 0;) strides[i] = step, step *= shape[i];
  py::array a(py::dtype::of<uint64_t>(), shape, strides, data, owner);
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

py::dict family_info(const CounterFamily& f) {
  py::list dims;
  for (const Dim& d : f.dims())
    dims.append(py::dict(py::arg("name") = d.name, py::arg("kind") = kind_name(d.kind),
                         py::arg("labels") = d.labels));
  return py::dict(py::arg("name") = f.name(), py::arg("component") = f.component(),
                  py::arg("unit") = f.unit(), py::arg("doc") = f.doc(), py::arg("dims") = dims);
}

py::array live_counters(py::object self, const std::string& name) {
  const RunStats& s = self.cast<const RunStats&>();
  const CounterFamily& f = s.registry.family(family_index(s, name));
  std::vector<py::ssize_t> shape;
  for (const Dim& d : f.dims()) shape.push_back(py::ssize_t(d.size()));
  return readonly_view(f.values().data(), shape, self);
}

// [kernel rows, category dims...] of the per-kernel table.
py::array kernel_counters(py::object self, const std::string& name) {
  const RunStats& s = self.cast<const RunStats&>();
  if (!s.kernels) throw accelsim::Error("no kernel table in this run");
  size_t i = family_index(s, name);
  std::vector<py::ssize_t> shape{py::ssize_t(s.kernels->rows())};
  for (const Dim& d : s.registry.family(i).dims())
    if (d.kind == DimKind::Category) shape.push_back(py::ssize_t(d.size()));
  return readonly_view(s.kernels->family_rows(i).data(), shape, self);
}

py::list family_names(const RunStats& s) {
  py::list out;
  for (size_t i = 0; i < s.registry.size(); ++i) out.append(s.registry.family(i).name());
  return out;
}

}  // namespace

void register_stats(py::module_& m) {
  py::class_<RunStats, std::shared_ptr<RunStats>>(m, "RunStats")
      .def(py::init([](size_t slots) { return std::make_shared<RunStats>(slots); }),
           py::arg("stream_slots") = 1)
      .def("families", &family_names, "Names of the counter families, in registry order.")
      .def("info", [](const RunStats& s, const std::string& name) {
             return family_info(s.registry.family(family_index(s, name)));
           }, py::arg("name"), "component, unit, doc and dims (name, kind, labels).")
      .def("counters", &live_counters, py::arg("name"),
           "Final totals, every dimension: a read-only view (no copy).")
      .def("counter_list", [](const RunStats& s, const std::string& name) {
             const auto& values = s.registry.family(family_index(s, name)).values();
             return std::vector<uint64_t>(values.begin(), values.end());
           }, py::arg("name"),
           "Final totals as a flat list (C order): for callers that must not load NumPy.")
      .def("kernel_counters", &kernel_counters, py::arg("name"),
           "Per-kernel rows (kernel's stream only, instances summed): a read-only view.")
      .def_property_readonly("stream_ids",
                             [](const RunStats& s) { return s.registry.stream_ids(); })
      .def_property_readonly("kernel_rows",
                             [](const RunStats& s) { return s.kernels ? s.kernels->rows() : 0; });
}
