// racer._frontend: what describing an instance in Python needs from C++ (PTX entries and their
// parameter types, the PTX cache, CUDA C++ lowered by nvcc), without the checker: a Python file
// described for `racer check FILE.py` loads this, and the CLI checks it in its own process.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "errors.hpp"
#include "frontend/nvcc.hpp"
#include "ptx/parser.hpp"
#include "ptx/types.hpp"
#include "support/content_hash.hpp"

namespace py = pybind11;
using namespace racer;

namespace {

// Every entry of a PTX module with its parameters' types, e.g. [("add", ["u64", "u64", "u32"])].
std::vector<std::pair<std::string, std::vector<std::string>>> ptx_entries(const std::string& path) {
  ptx::ParsedModule m = ptx::parse_ptx_file(path);
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const auto& f : m.module.functions) {
    if (!f.is_entry) continue;
    std::vector<std::string> types;
    for (const auto& p : f.params) types.emplace_back(ptx::type_name(p.type));
    out.emplace_back(f.name, std::move(types));
  }
  return out;
}

std::string compile_cuda(const std::string& text, const std::string& name, const std::vector<std::string>& include_dirs,
                         const std::string& arch, const std::vector<std::string>& opts, const std::string& cache_dir) {
  frontend::CudaSource src{text, name, include_dirs, arch, opts};
  py::gil_scoped_release unlocked;
  return frontend::compile_cuda(src, cache_dir).path;
}

}  // namespace

PYBIND11_MODULE(_frontend, m) {
  m.doc() = "Racer's front ends for the Python API: PTX entries, the PTX cache, CUDA C++ through nvcc";
  python::translate_errors(m, "FrontendError");
  m.def("ptx_entries", &ptx_entries, py::arg("path"));
  m.def("compile_cuda", &compile_cuda, py::arg("text"), py::arg("name"), py::arg("include_dirs"), py::arg("arch"),
        py::arg("options"), py::arg("cache_dir"));
  m.def("store_ptx", &store_ptx, py::arg("text"), py::arg("cache_dir"));
  m.def("default_cache_dir", &default_cache_dir);
  m.def("content_hash", &content_hash, py::arg("data"));
  m.def("find_nvcc", &frontend::find_nvcc);
}
