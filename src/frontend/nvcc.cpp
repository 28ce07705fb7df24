#include "frontend/nvcc.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/process.hpp"
#include "support/content_hash.hpp"
#include "support/error.hpp"

namespace racer::frontend {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& p) { return read_file(p.string()); }

// Runs argv with stdout and stderr into `log`; returns the exit status (127: not started).
int run(const std::vector<std::string>& argv, const fs::path& log) { return run_process(argv, log.string(), log.string()); }

bool executable(const fs::path& p) { return ::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p); }

// nvcc's version line, so a toolkit upgrade does not reuse PTX the old one wrote.
std::string nvcc_version(const std::string& nvcc, const fs::path& scratch) {
  fs::path log = scratch / ("nvcc-version." + std::to_string(::getpid()) + ".txt");
  run({nvcc, "--version"}, log);
  std::string v = read_all(log);
  fs::remove(log);
  return v;
}

}  // namespace

std::string find_nvcc() {
  if (const char* e = std::getenv("RACER_NVCC"); e && *e) return executable(e) ? e : "";
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    for (std::string dir; std::getline(ss, dir, ':');)
      if (!dir.empty() && executable(fs::path(dir) / "nvcc")) return (fs::path(dir) / "nvcc").string();
  }
  if (executable("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  return "";
}

CompiledPtx compile_cuda(const CudaSource& src, const std::string& cache_dir) {
  std::string nvcc = find_nvcc();
  if (nvcc.empty())
    throw Error(ExitCode::BadInput, src.name + ": cannot compile CUDA C++: no nvcc (looked at $RACER_NVCC, PATH and "
                                               "/usr/local/cuda/bin); install the CUDA toolkit or give the PTX");
  fs::create_directories(cache_dir);
  std::string key = "arch=" + src.arch + "\n";
  for (const auto& o : src.options) key += "opt=" + o + "\n";
  for (const auto& d : src.include_dirs) key += "inc=" + d + "\n";
  key += nvcc_version(nvcc, cache_dir) + "\n" + src.text;
  fs::path base = fs::path(cache_dir) / ("cuda-" + content_hash(key));
  fs::path ptx = base;
  ptx += ".ptx";
  if (fs::is_regular_file(ptx)) return {ptx.string(), true};

  std::string pid = std::to_string(::getpid());
  // The source stays in the cache beside its PTX: the PTX's .file names it, so defects can
  // show the CUDA line.
  fs::path cu = base, out = base, log = base;
  cu += ".cu";
  out += "." + pid + ".ptx";
  log += "." + pid + ".log";
  {
    // Written aside and renamed: a concurrent compile of the same source never reads half a file.
    fs::path tmp = cu;
    tmp += "." + pid;
    std::ofstream f(tmp, std::ios::binary);
    f << src.text;
    f.close();
    if (!f) throw Error(ExitCode::BadInput, "cannot write " + tmp.string());
    fs::rename(tmp, cu);
  }
  // -lineinfo keeps .loc lines, so defects name the CUDA source line.
  std::vector<std::string> argv = {nvcc, "-ptx", "-arch=" + src.arch, "-lineinfo"};
  for (const auto& d : src.include_dirs) argv.push_back("-I" + d);
  argv.insert(argv.end(), src.options.begin(), src.options.end());
  argv.insert(argv.end(), {"-o", out.string(), cu.string()});
  int rc = run(argv, log);
  std::string message = read_all(log);
  fs::remove(log);
  if (rc != 0 || !fs::is_regular_file(out)) {
    fs::remove(out);
    // nvcc names the cached copy; the user knows the source by its own name.
    for (size_t at; (at = message.find(cu.string())) != std::string::npos;) message.replace(at, cu.string().size(), src.name);
    throw Error(ExitCode::BadInput, src.name + ": nvcc failed (exit " + std::to_string(rc) + "):\n" + message);
  }
  fs::rename(out, ptx);
  return {ptx.string(), false};
}

}  // namespace racer::frontend
