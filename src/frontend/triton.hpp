#pragma once
// The Triton front end for C++ callers (kernel contracts): one @triton.jit kernel of a Python
// file compiled to PTX for a target architecture, without a GPU, by the racer Python package
// (python3 -m racer.triton_ptx), cached there by content.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace racer::frontend {

struct TritonSource {
  std::string file;    // the Python file
  std::string kernel;  // the @triton.jit function's name
  std::vector<std::string> signature;  // Triton types of the non-constexpr parameters: "*fp32", "i32", ...
  std::vector<std::pair<std::string, std::string>> constexprs;  // NAME, value as text
  int num_warps = 4, num_stages = 1;
  int arch = 90;
};

struct CompiledTriton {
  std::string ptx_path, entry;
  uint32_t extra_null_params = 0;  // scratch pointers Triton appends; passed as null
  uint32_t block = 0;              // threads per CTA the kernel was compiled for
  uint32_t shared = 0;             // dynamic shared memory it needs
};

// Throws racer::Error(BadInput) with Triton's (or the file's) own message when the kernel
// does not compile, and when Python or Triton cannot be run.
CompiledTriton compile_triton(const TritonSource& src);

// The Triton pointer or scalar type for an instance dtype name ("f32" -> "fp32").
std::string triton_type(const std::string& dtype);

}  // namespace racer::frontend
