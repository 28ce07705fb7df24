#pragma once
// The CUDA C++ front end: nvcc lowers a source to PTX, cached by the content hash of
// everything that determines the result (source, architecture, options, nvcc's version).
#include <string>
#include <vector>

namespace racer::frontend {

struct CudaSource {
  std::string text;
  std::string name = "kernel.cu";         // for messages: the user's file, or a label
  std::vector<std::string> include_dirs;  // the source's own directory, when it came from a file
  std::string arch = "sm_90";
  std::vector<std::string> options;       // passed to nvcc as given
};

struct CompiledPtx {
  std::string path;  // the PTX in the cache
  bool from_cache = false;
};

// nvcc from $RACER_NVCC, PATH, or /usr/local/cuda/bin; "" when there is none.
std::string find_nvcc();

// Throws racer::Error(BadInput) with nvcc's own message when the source does not compile,
// and when no nvcc is installed.
CompiledPtx compile_cuda(const CudaSource& src, const std::string& cache_dir);

}  // namespace racer::frontend
