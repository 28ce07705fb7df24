#include "frontend/nvcc.hpp"

#include <unistd.h>

#include <algorithm>
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

// The text of every local header the source reaches through #include "...", found as nvcc finds
// it (beside the including file, then in the include directories) and followed into the headers
// it includes: part of the cache key, so editing a header compiles its includers again.
void append_local_headers(const std::string& text, const fs::path& beside, const std::vector<std::string>& dirs,
                          std::vector<fs::path>& seen, std::string& key) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    size_t p = line.find_first_not_of(" \t");
    if (p == std::string::npos || line[p] != '#') continue;
    p = line.find_first_not_of(" \t", p + 1);
    if (p == std::string::npos || line.compare(p, 7, "include") != 0) continue;
    const size_t open = line.find('"', p + 7), close = open == std::string::npos ? open : line.find('"', open + 1);
    if (close == std::string::npos) continue;
    const std::string name = line.substr(open + 1, close - open - 1);
    std::vector<fs::path> places{beside / name};
    for (const auto& d : dirs) places.push_back(fs::path(d) / name);
    for (const fs::path& place : places) {
      std::error_code ec;
      if (!fs::is_regular_file(place, ec)) continue;
      const fs::path canonical = fs::weakly_canonical(place, ec);
      if (std::find(seen.begin(), seen.end(), canonical) == seen.end()) {
        seen.push_back(canonical);
        const std::string header = read_all(canonical);
        key += "header=" + canonical.string() + "\n" + header + "\n";
        append_local_headers(header, canonical.parent_path(), dirs, seen, key);
      }
      break;
    }
  }
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
  std::vector<fs::path> seen;
  append_local_headers(src.text, fs::path(cache_dir), src.include_dirs, seen, key);  // (nvcc compiles the cached copy)
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
