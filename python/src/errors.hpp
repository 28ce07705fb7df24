#pragma once
// How both compiled modules (racer._core, racer._frontend) hand C++ errors to Python: a
// racer::Error becomes the module's <Name>Error (a ValueError) with the exit code as its second
// argument, which racer._native.call turns into a RacerError with that code.
#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>

#include "support/error.hpp"

namespace racer::python {

inline void translate_errors(pybind11::module_& m, const char* exception_name) {
  namespace py = pybind11;
  static py::exception<Error> error(m, exception_name, PyExc_ValueError);
  py::register_local_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      // A tuple value becomes the exception's args when Python instantiates it.
      py::tuple args = py::make_tuple(py::str(e.what()), static_cast<int>(e.code()));
      PyErr_SetObject(error.ptr(), args.ptr());
    } catch (const nlohmann::json::exception& e) {
      PyErr_SetString(PyExc_ValueError, (std::string("malformed instance description: ") + e.what()).c_str());
    }
  });
}

}  // namespace racer::python
