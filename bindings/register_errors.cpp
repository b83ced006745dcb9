// C++ exceptions become the Python exceptions of accelsim.errors, carrying the
// file / line / field (or key) that caused them.
#include <pybind11/pybind11.h>

#include <cstring>

#include "base/error.h"
#include "ptx/ptx_error.h"

namespace py = pybind11;

namespace {
// Messages embed file paths, which need not be valid UTF-8.
py::object text(const char* s) {
  return py::reinterpret_steal<py::object>(
      PyUnicode_DecodeUTF8(s, Py_ssize_t(std::strlen(s)), "replace"));
}
}  // namespace


void register_errors(py::module_&) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const accelsim::TraceError& e) {
      py::object cls = py::module_::import("accelsim.errors").attr("TraceError");
      // Paths are bytes on Linux: decode like os.fsdecode so any name survives.
      py::object path = py::reinterpret_steal<py::object>(
          PyUnicode_DecodeFSDefaultAndSize(e.path().data(), Py_ssize_t(e.path().size())));
      py::object exc = cls(text(e.what()), path, e.line() > 0 ? py::object(py::int_(e.line())) : py::none(),
                           e.field().empty() ? py::object(py::none()) : py::object(py::str(e.field())));
      PyErr_SetObject(cls.ptr(), exc.ptr());
    } catch (const accelsim::ConfigError& e) {
      py::object cls = py::module_::import("accelsim.errors").attr("ConfigError");
      py::object exc = cls(text(e.what()), py::arg("key") = e.key());
      PyErr_SetObject(cls.ptr(), exc.ptr());
    } catch (const accelsim::ptx::PtxError& e) {
      py::object cls = py::module_::import("accelsim.errors").attr("PtxError");
      auto opt = [](int64_t v) { return v > 0 ? py::object(py::int_(v)) : py::object(py::none()); };
      py::object exc = cls(text(e.what()), text(e.path().c_str()), opt(e.line()), opt(e.column()),
                           text(e.token().c_str()));
      PyErr_SetObject(cls.ptr(), exc.ptr());
    } catch (const accelsim::DeadlockError& e) {
      py::object cls = py::module_::import("accelsim.errors").attr("DeadlockError");
      PyErr_SetObject(cls.ptr(), cls(text(e.what())).ptr());
    } catch (const accelsim::Error& e) {
      py::object cls = py::module_::import("accelsim.errors").attr("AccelsimError");
      PyErr_SetObject(cls.ptr(), cls(text(e.what())).ptr());
    }
  });
}
