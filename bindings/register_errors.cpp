// C++ exceptions become the Python exceptions of accelsim.errors, carrying the
// file / line / field (or key) that caused them.
#include <pybind11/pybind11.h>

#include "base/error.h"

namespace py = pybind11;


void register_errors(py::module_&) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const accelsim::TraceError& e) {
      py::object cls = py::module_::import("accelsim.errors").attr("TraceError");
      py::object exc = cls(e.what(), e.path(), e.line() > 0 ? py::object(py::int_(e.line())) : py::none(),
                           e.field().empty() ? py::object(py::none()) : py::object(py::str(e.field())));
      PyErr_SetObject(cls.ptr(), exc.ptr());
    } catch (const accelsim::ConfigError& e) {
      py::object cls = py::module_::import("accelsim.errors").attr("ConfigError");
      py::object exc = cls(e.what(), py::arg("key") = e.key());
      PyErr_SetObject(cls.ptr(), exc.ptr());
    } catch (const accelsim::DeadlockError& e) {
      py::object cls = py::module_::import("accelsim.errors").attr("DeadlockError");
      PyErr_SetObject(cls.ptr(), cls(e.what()).ptr());
    } catch (const accelsim::Error& e) {
      py::object cls = py::module_::import("accelsim.errors").attr("AccelsimError");
      PyErr_SetObject(cls.ptr(), cls(e.what()).ptr());
    }
  });
}
