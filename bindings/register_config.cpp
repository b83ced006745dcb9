#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "base/error.h"
#include "config/config_text.h"
#include "config_convert.h"

namespace py = pybind11;
using accelsim::config::ExecUnitConfig;
using accelsim::config::GpuConfig;

namespace accelsim::bindings {

GpuConfig config_from_dict(const py::dict& d) {
  GpuConfig cfg;
  if (d.contains("name")) cfg.name = d["name"].cast<std::string>();
#define P(name, kind, def, mn, mx, choices, doc) \
  if (d.contains(#name)) cfg.name = d[#name].cast<decltype(cfg.name)>();
#include "config/params.def"
#undef P
  if (d.contains("exec_units")) {
    for (auto item : d["exec_units"].cast<py::list>()) {
      auto u = item.cast<py::dict>();
      ExecUnitConfig e;
      e.name = u["name"].cast<std::string>();
      e.units_per_sm = u["units_per_sm"].cast<int64_t>();
      e.latency = u["latency"].cast<int64_t>();
      e.initiation = u["initiation"].cast<int64_t>();
      if (u.contains("lanes")) e.lanes = u["lanes"].cast<int64_t>();
      e.classes = u["classes"].cast<std::vector<std::string>>();
      cfg.exec_units.push_back(std::move(e));
    }
  }
  if (d.contains("opcode_units"))
    for (auto kv : d["opcode_units"].cast<py::dict>())
      cfg.opcode_units.emplace_back(kv.first.cast<std::string>(), kv.second.cast<std::string>());
  if (d.contains("shmem_carveouts"))
    cfg.shmem_carveouts = d["shmem_carveouts"].cast<std::vector<int64_t>>();
  config::validate(cfg);
  return cfg;
}

py::dict config_to_dict(const GpuConfig& cfg) {
  py::dict d;
  d["name"] = cfg.name;
#define P(name, kind, def, mn, mx, choices, doc) d[#name] = cfg.name;
#include "config/params.def"
#undef P
  py::list units;
  for (const auto& e : cfg.exec_units) {
    py::dict u;
    u["name"] = e.name;
    u["units_per_sm"] = e.units_per_sm;
    u["latency"] = e.latency;
    u["initiation"] = e.initiation;
    u["lanes"] = e.lanes;
    u["classes"] = e.classes;
    units.append(u);
  }
  d["exec_units"] = units;
  py::dict ops;
  for (const auto& [op, unit] : cfg.opcode_units) ops[py::str(op)] = unit;
  d["opcode_units"] = ops;
  d["shmem_carveouts"] = cfg.shmem_carveouts;
  return d;
}

}  // namespace accelsim::bindings

void register_config(py::module_& m) {
  using namespace accelsim;
  m.def("param_declarations", [] {
    py::list out;
    GpuConfig defaults;
    py::dict values = bindings::config_to_dict(defaults);
    for (const auto& d : config::param_decls()) {
      py::dict decl;
      decl["name"] = d.name;
      decl["kind"] = config::kind_name(d.kind);
      decl["default"] = values[d.name];
      decl["min"] = d.min;
      decl["max"] = d.max;
      decl["choices"] = std::string(d.choices);
      decl["doc"] = d.doc;
      out.append(decl);
    }
    return out;
  }, "Every scalar parameter: name, kind, default, range, choices, doc.");
  m.def("config_text", [](const py::dict& d) {
    return accelsim::config::to_text(bindings::config_from_dict(d));
  }, "The config as the plain text the CUDA runtime library reads (config/config_text.h).");
  m.def("config_from_text", [](const std::string& text, const std::string& where) {
    return bindings::config_to_dict(accelsim::config::from_text(text, where));
  }, py::arg("text"), py::arg("where") = "<text>", "Reads config text back into canonical values.");
  m.def("check_config", [](const py::dict& d) {
    return bindings::config_to_dict(bindings::config_from_dict(d));
  }, "Build the C++ GpuConfig from canonical values, validate it, return it back as a dict.");
}
