// accelsim._core: pybind11 glue only; each area registers itself.
#include <pybind11/pybind11.h>

namespace py = pybind11;

void register_errors(py::module_& m);
void register_config(py::module_& m);
void register_trace(py::module_& m);
void register_sim(py::module_& m);
void register_stats(py::module_& m);
void register_ptx(py::module_& m);

PYBIND11_MODULE(_core, m) {
  m.doc() = "accelsim C++ timing core (private; use the accelsim package)";
  register_errors(m);
  register_config(m);
  register_trace(m);
  register_sim(m);
  register_stats(m);
  register_ptx(m);
}
